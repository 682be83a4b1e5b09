/**
 * POST /asset/upload: the form checked (services/upload/form.ts), the metadata read, the records built
 * (services/upload/records.ts), the files stored with rollback (services/upload/store.ts), the file's keywords made
 * its tags (file-tags.ts), and the asset recorded with its people (services/upload/people.ts).
 */
import { createHash } from 'node:crypto';
import { requireLivePhotoVideo } from '../../access/asset-access.ts';
import { requireLibrary } from '../../access/library-access.ts';
import { Permission } from '../../access/permission.ts';
import { Inaccessible, Invalid } from '../../core/errors.ts';
import * as assetRepo from '../../db/asset.repository.ts';
import { doneWith } from '../../db/outcome.ts';
import * as termRepo from '../../db/term.repository.ts';
import * as userRepo from '../../db/user.repository.ts';
import { requireUniqueKeys } from '../../domain/asset-metadata.ts';
import { assetTypeOf, mimeTypeOf } from '../../domain/media-types.ts';
import { fitsQuota, quotaCheckOf } from '../../domain/quota.ts';
import { assetTerms } from '../../domain/terms.ts';
import { extractMetadata, InvalidSidecarError, type Metadata } from '../../media/metadata.ts';
import { motionVideoExtension, motionVideoOf } from '../../media/motion-photo.ts';
import type { AssetRecord } from '../../model/asset.ts';
import type { UploadOutcome } from '../../model/upload.ts';
import type { Auth } from '../../model/user.ts';
import { putFileTags, removeFileTags } from '../file-tags.ts';
import { checkImageReadable, type UploadInput, validateUploadForm } from './form.ts';
import { recordNewAsset } from './people.ts';
import { motionRecord, newAsset, withVersions } from './records.ts';
import { removeOriginals, storeOriginals } from './store.ts';

export type { UploadInput } from './form.ts';

const sha1Hex = (data: Buffer): string => createHash('sha1').update(data).digest('hex');

/** A file name without its extension (`PXL_1.MP.jpg` → `PXL_1.MP`), as Node's `parse(name).name`. */
const stemOf = (fileName: string): string => fileName.replace(/(.)\.[^.]*$/, '$1');

/**
 * POST /asset/upload, once the form is read (file types were checked as each file started). In
 * Immich's order: the asset file's presence, the text fields. Then: a duplicate (same SHA-1 for
 * this owner) answers with the existing id and stores nothing; otherwise the original (and
 * sidecar) are stored, and the asset, its faces and people are recorded in one transaction. If
 * recording fails, the stored objects are removed again, so nothing is left half-written.
 */
export const uploadFile = async (auth: Auth, form: UploadInput, retried = false): Promise<UploadOutcome> => {
  const { file, dto, sidecar, livePhoto } = validateUploadForm(form);
  // A live photo's video sent beside it, else a motion photo's video extracted as Immich's
  // metadata job does: either becomes a hidden asset of its own. v3's apps upload the video
  // first and name it (`livePhotoVideoId`): then nothing is extracted.
  const checksum = sha1Hex(file.data);
  const motionVideo = dto.livePhotoVideoId
    ? undefined
    : (livePhoto?.data ?? (assetTypeOf(file.fileName) === 'IMAGE' ? motionVideoOf(file.data) : undefined));
  const motionChecksum = motionVideo ? sha1Hex(motionVideo) : undefined;
  const [existing, user] = await Promise.all([
    assetRepo.findByChecksums(auth.user.id, motionChecksum ? [checksum, motionChecksum] : [checksum]),
    userRepo.get(auth.user.id),
  ]);
  const duplicateId = existing.get(checksum);
  if (duplicateId) return { id: duplicateId, duplicate: true };
  // v3's metadata keys, kept with the new asset (a duplicate keeps its own, as Immich's).
  requireUniqueKeys(dto.metadata ?? [], (entry) => entry.key);
  if (!user) throw new Inaccessible('User not found');
  if (dto.libraryId) requireLibrary(Permission.AssetUpload, dto.libraryId, user);
  // The motion part: the same video uploaded before (the same checksum) is linked, not stored again.
  const existingMotion = motionChecksum ? existing.get(motionChecksum) : undefined;
  const motionBytes = motionVideo && !existingMotion ? motionVideo.length : 0;
  if (!fitsQuota(user, quotaCheckOf(user), file.data.length + motionBytes)) throw new Invalid('Quota has been exceeded!');

  checkImageReadable(file.fileName, file.data);
  if (dto.livePhotoVideoId) await linkLivePhotoVideo(auth, dto.livePhotoVideoId);
  let metadata: Metadata;
  try {
    metadata = await extractMetadata(file.data, sidecar?.data);
  } catch (error) {
    if (error instanceof InvalidSidecarError) throw new Invalid(`Invalid XMP sidecar ${sidecar?.fileName ?? ''}`);
    throw error;
  }

  const photo = newAsset(auth.user.id, user.defaultLibraryId, file, sidecar !== undefined, checksum, dto, metadata);
  // A motion photo's video is named after the photo, with its container's extension (Immich v3's name).
  const motionName = (video: Buffer): string => livePhoto?.fileName ?? `${stemOf(file.fileName)}${motionVideoExtension(video)}`;
  const motion =
    motionVideo && motionChecksum && !existingMotion
      ? {
          asset: motionRecord(photo, motionChecksum, await extractMetadata(motionVideo), {
            fileName: motionName(motionVideo),
            uploaded: livePhoto !== undefined,
          }),
          data: motionVideo,
          contentType: mimeTypeOf(motionName(motionVideo)),
        }
      : undefined;
  const asset: AssetRecord = { ...photo, livePhotoVideoId: dto.livePhotoVideoId ?? existingMotion ?? motion?.asset.id ?? null };
  await writeAssetPostings(asset, metadata);
  const stored = await storeOriginals(asset, file, sidecar, motion);
  const recorded = withVersions(asset, stored);
  const recordedMotion = motion ? withVersions(motion.asset, stored) : undefined;
  // The file's keywords as tags on the asset (shared/services/file-tags.ts), before it is recorded:
  // a tag's entries for an asset not (yet) recorded point nowhere, and a failure takes them off.
  const tagged = new Set<string>();
  const undo = async () => {
    await removeOriginals(stored);
    await removeFileTags(asset.id, tagged);
  };
  let outcome: Awaited<ReturnType<typeof recordNewAsset>>;
  try {
    await putFileTags(asset.ownerId, asset.id, metadata.keywords, tagged);
    outcome = await recordNewAsset(recorded, metadata.faces, user, {
      ...(recordedMotion ? { motion: recordedMotion } : {}),
      metadata: dto.metadata,
    });
  } catch (error) {
    await undo();
    throw error;
  }
  if (outcome.ok) return { id: asset.id, duplicate: false };
  await undo();
  if (outcome.reason === 'duplicate') {
    const winner = (await assetRepo.findByChecksums(auth.user.id, [checksum])).get(checksum);
    if (winner) return { id: winner, duplicate: true };
    // Another upload stored the same motion video meanwhile: once more, linking to it.
    if (motion && !retried) return uploadFile(auth, form, true);
  }
  if (outcome.reason === 'quota') throw new Invalid('Quota has been exceeded!');
  throw new Error(`The upload of asset ${asset.id} was refused: ${outcome.reason}`);
};

/**
 * Immich v3's check of a live photo's video named by its photo's upload: the caller's own video,
 * hidden from the timeline if it is still there (`onBeforeLink`).
 */
const linkLivePhotoVideo = async (auth: Auth, videoId: string): Promise<void> => {
  const found = await requireLivePhotoVideo(auth, videoId);
  await assetRepo.withFreshAsset(found, async (fresh) =>
    fresh.asset.visibility === 'timeline' ? assetRepo.update(fresh.asset, fresh.faces, { visibility: 'hidden' }) : doneWith(fresh.asset),
  );
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
