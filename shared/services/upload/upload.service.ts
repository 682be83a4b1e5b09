/**
 * POST /asset/upload (and v3's POST /assets) in Lambda, the file in the request: the form checked
 * (services/upload/form.ts), then the steps every upload shares (services/upload/admit.ts: the
 * duplicate, the quota, the metadata, the recording with its people and tags), the records built
 * (services/upload/records.ts) and the files stored with rollback (services/upload/store.ts).
 */
import { createHash } from 'node:crypto';
import * as assetRepo from '../../db/asset.repository.ts';
import { assetTypeOf, mimeTypeOf } from '../../domain/media-types.ts';
import { motionVideoExtension, motionVideoOf } from '../../media/motion-photo.ts';
import type { AssetRecord } from '../../model/asset.ts';
import type { UploadOutcome } from '../../model/upload.ts';
import type { Auth } from '../../model/user.ts';
import { admitUpload, commitUpload, linkLivePhotoVideo, readUploadMetadata, stemOf, writeAssetPostings } from './admit.ts';
import { checkImageReadable, type UploadInput, validateUploadForm } from './form.ts';
import { motionRecord, newAsset, withVersions } from './records.ts';
import { removeOriginals, storeOriginals } from './store.ts';

export type { UploadInput } from './form.ts';

const sha1Hex = (data: Buffer): string => createHash('sha1').update(data).digest('hex');

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
  const admitted = await admitUpload(
    auth,
    dto,
    checksum,
    motionVideo && motionChecksum ? { checksum: motionChecksum, size: motionVideo.length } : undefined,
    file.data.length,
  );
  if (admitted.duplicateId !== undefined) return { id: admitted.duplicateId, duplicate: true };
  const { user, existingMotion } = admitted;

  checkImageReadable(file.fileName, file.data);
  if (dto.livePhotoVideoId) await linkLivePhotoVideo(auth, dto.livePhotoVideoId);
  const metadata = await readUploadMetadata(file.data, sidecar);

  const photo = newAsset(auth.user.id, user.defaultLibraryId, file, sidecar !== undefined, checksum, dto, metadata);
  // A motion photo's video is named after the photo, with its container's extension (Immich v3's name).
  const motionName = (video: Buffer): string => livePhoto?.fileName ?? `${stemOf(file.fileName)}${motionVideoExtension(video)}`;
  const motion =
    motionVideo && motionChecksum && !existingMotion
      ? {
          asset: motionRecord(photo, motionChecksum, await readUploadMetadata(motionVideo, undefined), {
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
  const outcome = await commitUpload({
    asset: withVersions(asset, stored),
    faces: metadata.faces,
    keywords: metadata.keywords,
    owner: user,
    motion: motion ? withVersions(motion.asset, stored) : undefined,
    metadata: dto.metadata,
    undo: () => removeOriginals(stored),
  });
  if (outcome === 'ok') return { id: asset.id, duplicate: false };
  if (outcome === 'duplicate') {
    const winner = (await assetRepo.findByChecksums(auth.user.id, [checksum])).get(checksum);
    if (winner) return { id: winner, duplicate: true };
    // Another upload stored the same motion video meanwhile: once more, linking to it.
    if (motion && !retried) return uploadFile(auth, form, true);
  }
  throw new Error(`The upload of asset ${asset.id} was refused: ${outcome}`);
};
