/**
 * The people of an upload's face regions: each named region is matched to the owner's person of
 * that name (case-insensitive), new names become new people, and the asset is recorded with them
 * in one transaction.
 */
import { randomUUID } from 'node:crypto';
import { log } from '../../core/log.ts';
import type { NewUpload } from '../../db/asset.repository.ts';
import * as assetRepo from '../../db/asset.repository.ts';
import { type Outcome, refused } from '../../db/outcome.ts';
import * as personRepo from '../../db/person.repository.ts';
import * as userRepo from '../../db/user.repository.ts';
import { quotaCheckOf } from '../../domain/quota.ts';
import type { FaceRegion } from '../../media/faces.ts';
import type { AssetRecord, FaceRecord } from '../../model/asset.ts';
import { foldName, newPerson, type PersonRecord } from '../../model/person.ts';
import type { UserRecord } from '../../model/user.ts';

// A transaction holds at most 100 writes; an upload needs 7 (fixedUploadWrites) plus, per person,
// 2 (new) or 1 (known), plus 1 per face, plus 1 per metadata key (at most 20). 31 faces of 31
// different new people fit, 24 beside 20 keys.
const maxFacesPerAsset = (metadataKeys: number): number => Math.floor((100 - assetRepo.fixedUploadWrites - metadataKeys) / 3);

interface People {
  newPeople: PersonRecord[];
  existingPeople: Set<string>;
  faces: FaceRecord[];
}

/** Matches the file's named regions to the owner's people by name (case-insensitive); new names become new people. */
const resolvePeople = async (ownerId: string, assetId: string, regions: readonly FaceRegion[], now: string): Promise<People> => {
  if (regions.length === 0) return { newPeople: [], existingPeople: new Set(), faces: [] };
  const known = await personRepo.findByName(
    ownerId,
    regions.map((region) => region.name),
  );
  const created = new Map<string, PersonRecord>();
  const existingPeople = new Set<string>();
  const faces = regions.map((region, index): FaceRecord => {
    const folded = foldName(region.name);
    let personId = known.get(folded);
    if (personId) existingPeople.add(personId);
    else {
      let person = created.get(folded);
      if (!person) {
        person = newPerson(ownerId, now, { name: region.name.trim(), faceAssetId: assetId });
        created.set(folded, person);
      }
      personId = person.id;
    }
    const { name: _name, ...box } = region;
    return { id: randomUUID(), assetId, personId, ownerId, ...box, index, sourceType: 'exif' as const };
  });
  return { newPeople: [...created.values()], existingPeople, faces };
};

/**
 * Records a new asset (its file already stored) with its faces and their people (and v3's metadata
 * keys sent with it), in one transaction (shared/db/asset.repository.ts `recordUpload`), with `also` in the same
 * transaction, counted against the quota of `owner` as read. A concurrent upload may create a
 * person of the same name first, or the owner may open an upload session meanwhile: then it is
 * read again and tried once more. Refused `duplicate`, `quota` or `session-ended` for the caller to
 * answer. `release` is the upload session whose file this is (its hold ends with it).
 */
export const recordNewAsset = async (
  asset: AssetRecord,
  faceRegions: readonly FaceRegion[],
  owner: UserRecord,
  options: Pick<NewUpload, 'motion' | 'also' | 'release' | 'metadata'>,
): Promise<Outcome<'duplicate' | 'quota' | 'session-ended'>> => {
  const regions = faceRegions.slice(0, maxFacesPerAsset(options.metadata?.length ?? 0));
  if (faceRegions.length > regions.length)
    log.warn('Face regions over the limit were not recorded', { assetId: asset.id, faces: faceRegions.length });
  let quota = quotaCheckOf(owner, options.release);
  for (let attempt = 1; ; attempt++) {
    const people = await resolvePeople(asset.ownerId, asset.id, regions, asset.createdAt);
    // A hold this session no longer has (it was ended meanwhile) is not released twice.
    const release = options.release && options.release in owner.uploadSessions ? options.release : undefined;
    const recorded = await assetRepo.recordUpload({ asset, ...people, quota, ...options, release });
    if (recorded.ok) return recorded;
    const { reason } = recorded;
    if (reason === 'duplicate' || reason === 'session-ended') return refused(reason);
    if (reason === 'quota') {
      if (attempt >= 3) return refused(reason);
      const current = await userRepo.get(asset.ownerId);
      if (!current || current.uploadSessionsOpened === quota.opened) return refused(reason);
      owner = current;
      quota = quotaCheckOf(current, options.release);
    } else if (attempt >= 3) throw new Error(`The people of asset ${asset.id} kept changing while it was recorded (${reason})`);
  }
};
