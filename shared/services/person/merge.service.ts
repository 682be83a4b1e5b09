import { Permission } from '../../access/permission.ts';
import { allowedPeople, requirePerson } from '../../access/person-access.ts';
import { Invalid } from '../../core/errors.ts';
import * as assetRepo from '../../db/asset.repository.ts';
import * as personRepo from '../../db/person.repository.ts';
import * as termRepo from '../../db/term.repository.ts';
import { nameTerms } from '../../domain/terms.ts';
import type { BulkIdResult } from '../../model/album.ts';
import type { FaceEntry } from '../../model/asset.ts';
import type { PersonChanges } from '../../model/person.ts';
import type { Auth } from '../../model/user.ts';
import { originalsStore } from '../../storage/originals.ts';

// Its own module: the other person functions do not carry the originals store (merging removes a thumbnail).

/**
 * POST /person/:id/merge: each of `ids` (the caller's people) is merged into this person: their
 * faces move to it, asset by asset (each a transaction with the asset's people and both counts),
 * a missing name or birth date is taken over, and the merged person is deleted with their name
 * and thumbnail. Per id: `success`, `no_permission` (not the caller's: checked for all ids at
 * once, as Immich), or `not_found` (merged already, by this request or another).
 */
export const mergePerson = async (auth: Auth, id: string, ids: readonly string[]): Promise<BulkIdResult[]> => {
  let primary = await requirePerson(auth, Permission.PersonWrite, id);
  if (ids.includes(id)) throw new Invalid('Cannot merge a person into themselves');
  const results: BulkIdResult[] = [];
  const allowed = await allowedPeople(auth, ids);
  for (const mergeId of ids) {
    if (!allowed.has(mergeId)) {
      results.push({ id: mergeId, success: false, error: 'no_permission' });
      continue;
    }
    const merged = await personRepo.get(auth.user.id, mergeId);
    if (!merged) {
      results.push({ id: mergeId, success: false, error: 'not_found' });
      continue;
    }
    const takeOver: PersonChanges = {};
    if (!primary.name && merged.name) takeOver.name = merged.name;
    if (!primary.birthDate && merged.birthDate) takeOver.birthDate = merged.birthDate;
    if (Object.keys(takeOver).length > 0) {
      const written = await personRepo.update(primary, takeOver);
      if (written.ok) primary = written.value;
    }
    const faces = await personRepo.listFaces(merged.id);
    const byAsset = new Map<string, FaceEntry[]>();
    for (const face of faces) byAsset.set(face.assetId, [...(byAsset.get(face.assetId) ?? []), face]);
    // The assets become findable by the primary person's name (postings first, as for uploads).
    if (nameTerms(primary.name).length > 0) {
      await termRepo.writePostings(
        auth.user.id,
        [...byAsset.values()].flatMap((list) =>
          termRepo.postingsOf({ id: list[0]?.assetId ?? '', fileCreatedAt: list[0]?.fileCreatedAt ?? '' }, nameTerms(primary.name)),
        ),
      );
    }
    for (const asset of await assetRepo.getMany([...byAsset.keys()])) {
      await personRepo.reassignAssetFaces(asset, byAsset.get(asset.id) ?? [], merged, primary);
    }
    await personRepo.remove(merged);
    if (merged.thumbnailPath) await (await originalsStore()).delete([{ key: merged.thumbnailPath }]);
    results.push({ id: mergeId, success: true });
  }
  return results;
};
