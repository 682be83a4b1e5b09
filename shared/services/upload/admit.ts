/**
 * The steps every upload goes through, whether its file arrived in the request (POST /asset/upload
 * and POST /assets in Lambda, upload.service.ts) or was stored before it is recorded (the ingress's
 * streamed uploads and the upload sessions, stored-upload.service.ts): each rule is written here
 * once and both paths call it (docs/large-uploads.md).
 */
import { requireLivePhotoVideo } from '../../access/asset-access.ts';
import { requireLibrary } from '../../access/library-access.ts';
import { Permission } from '../../access/permission.ts';
import { Inaccessible, Invalid } from '../../core/errors.ts';
import * as assetRepo from '../../db/asset.repository.ts';
import { doneWith } from '../../db/outcome.ts';
import * as termRepo from '../../db/term.repository.ts';
import * as userRepo from '../../db/user.repository.ts';
import { requireUniqueKeys } from '../../domain/asset-metadata.ts';
import { fitsQuota, quotaCheckOf } from '../../domain/quota.ts';
import { assetTerms } from '../../domain/terms.ts';
import type { FaceRegion } from '../../media/faces.ts';
import { extractMetadata, InvalidSidecarError, type Metadata } from '../../media/metadata.ts';
import type { AssetRecord } from '../../model/asset.ts';
import type { NewAssetFields } from '../../model/upload.ts';
import type { Auth, UserRecord } from '../../model/user.ts';
import { putFileTags, removeFileTags } from '../file-tags.ts';
import { recordNewAsset } from './people.ts';

/** Immich's answer to an upload over the quota. */
export const quotaExceeded = (): Invalid => new Invalid('Quota has been exceeded!');

/** A file name without its extension (`PXL_1.MP.jpg` → `PXL_1.MP`), as Node's `parse(name).name`. */
export const stemOf = (fileName: string): string => fileName.replace(/(.)\.[^.]*$/, '$1');

export type Admission = { duplicateId: string } | { duplicateId?: undefined; user: UserRecord; existingMotion: string | undefined };

/**
 * After the form, in Immich's order: a duplicate (the same SHA-1 among the owner's assets) is
 * answered with its id; then v3's metadata keys, the user, the library and the quota (`bytes`, the
 * file's size and, when its motion video is new, the video's; `release` is the upload session
 * whose own hold the file takes).
 */
export const admitUpload = async (
  auth: Auth,
  dto: NewAssetFields,
  checksum: string,
  motion: { checksum: string; size: number } | undefined,
  size: number,
  release?: string,
): Promise<Admission> => {
  const [existing, user] = await Promise.all([
    assetRepo.findByChecksums(auth.user.id, motion ? [checksum, motion.checksum] : [checksum]),
    userRepo.get(auth.user.id),
  ]);
  const duplicateId = existing.get(checksum);
  if (duplicateId) return { duplicateId };
  // v3's metadata keys, kept with the new asset (a duplicate keeps its own, as Immich's).
  requireUniqueKeys(dto.metadata ?? [], (entry) => entry.key);
  if (!user) throw new Inaccessible('User not found');
  if (dto.libraryId) requireLibrary(Permission.AssetUpload, dto.libraryId, user);
  // The motion part: the same video uploaded before (the same checksum) is linked, not stored again.
  const existingMotion = motion ? existing.get(motion.checksum) : undefined;
  const motionBytes = motion && !existingMotion ? motion.size : 0;
  if (!fitsQuota(user, quotaCheckOf(user, release), size + motionBytes)) throw quotaExceeded();
  return { user, existingMotion };
};

/**
 * Immich v3's check of a live photo's video named by its photo's upload: the caller's own video,
 * hidden from the timeline if it is still there (`onBeforeLink`).
 */
export const linkLivePhotoVideo = async (auth: Auth, videoId: string): Promise<void> => {
  const found = await requireLivePhotoVideo(auth, videoId);
  await assetRepo.withFreshAsset(found, async (fresh) =>
    fresh.asset.visibility === 'timeline' ? assetRepo.update(fresh.asset, fresh.faces, { visibility: 'hidden' }) : doneWith(fresh.asset),
  );
};

/** The file's metadata (`file` may be what readForMetadata read of it, `size` the whole file's); a broken sidecar is a 400 naming it. */
export const readUploadMetadata = async (
  file: Buffer,
  sidecar: { fileName: string; data: Buffer } | undefined,
  size = file.length,
): Promise<Metadata> => {
  try {
    return await extractMetadata(file, sidecar?.data, size);
  } catch (error) {
    if (error instanceof InvalidSidecarError) throw new Invalid(`Invalid XMP sidecar ${sidecar?.fileName ?? ''}`);
    throw error;
  }
};

/** Search postings first: harmless if the upload then fails, and the asset never lacks them. */
export const writeAssetPostings = (asset: AssetRecord, metadata: Metadata): Promise<void> =>
  termRepo.writePostings(
    asset.ownerId,
    termRepo.postingsOf(
      asset,
      assetTerms(
        asset,
        metadata.faces.map((face) => face.name),
      ),
    ),
  );

export interface Commit {
  /** The asset as recorded (its objects stored, their versions on it). */
  asset: AssetRecord;
  faces: readonly FaceRegion[];
  keywords: readonly string[];
  owner: UserRecord;
  motion?: AssetRecord | undefined;
  metadata?: NewAssetFields['metadata'];
  /** The upload session whose file this is, and the writes that end it (in the same transaction). */
  release?: string | undefined;
  also?: Parameters<typeof recordNewAsset>[3]['also'];
  /** Removes the upload's stored objects: called when it is not recorded. */
  undo: () => Promise<void>;
}

/**
 * The file's keywords made its tags (shared/services/file-tags.ts), then the asset recorded with
 * its people in one transaction. Refused or failed, the tags and the stored objects go again
 * (`undo`): `quota` is Immich's 400; a `duplicate` or an ended session is handed back for the
 * caller to answer, unless the asset of this very id was recorded meanwhile (a concurrent
 * completion of the same upload session): then the objects are that asset's and stay (`ok`).
 */
export const commitUpload = async (commit: Commit): Promise<'ok' | 'duplicate' | 'session-ended'> => {
  const { asset } = commit;
  const tagged = new Set<string>();
  const undo = async (): Promise<void> => {
    await commit.undo();
    await removeFileTags(asset.id, tagged);
  };
  let outcome: Awaited<ReturnType<typeof recordNewAsset>>;
  try {
    await putFileTags(asset.ownerId, asset.id, commit.keywords, tagged);
    outcome = await recordNewAsset(asset, commit.faces, commit.owner, {
      ...(commit.motion ? { motion: commit.motion } : {}),
      metadata: commit.metadata,
      ...(commit.release ? { release: commit.release } : {}),
      ...(commit.also ? { also: commit.also } : {}),
    });
  } catch (error) {
    await undo();
    throw error;
  }
  if (outcome.ok) return 'ok';
  if (outcome.reason !== 'quota' && (await assetRepo.get(asset.id))) return 'ok';
  await undo();
  if (outcome.reason === 'quota') throw quotaExceeded();
  return outcome.reason;
};
