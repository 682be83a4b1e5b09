/**
 * Immich's edit thumbnail job: the asset's edited full size, preview, thumbnail and thumbhash, made
 * from the original with its photo edits as they are now (shared/media/images.ts, renderEdited)
 * and recorded only while those are still its edits. In an upload's run, an edited asset shows its
 * edits: its edited files and thumbhash are made again after its previews.
 */
import { log } from '../../../core/log.ts';
import * as assetRepo from '../../../db/asset.repository.ts';
import { editedKeys } from '../../../domain/media-files.ts';
import { isRaw } from '../../../domain/media-types.ts';
import { renderEdited } from '../../../media/images.ts';
import { embeddedPreview } from '../../../media/raw.ts';
import type { AssetRecord } from '../../../model/asset.ts';
import type { SystemConfig } from '../../../model/config.ts';
import { raise } from '../../../realtime/outbox.ts';
import type { OriginalsStore } from '../../../storage/originals.ts';
import { currentAssets } from '../../asset-detail.ts';
import type { MediaOutcome, MediaStep } from '../step.ts';

/**
 * Immich's edit thumbnail job is done: its owner's apps are told (`AssetEditReadyV2`), which both
 * of Immich's apps wait for after an edit, with the asset and its edits as they are now.
 */
export const editsReady = (asset: AssetRecord): void =>
  raise({ kind: 'asset-edited', ownerId: asset.ownerId, assetId: asset.id, load: currentAssets });

/** An asset without edits: its edited files go (its unedited previews and thumbhash are made by the previews step). */
export const removeEditedFiles = async (asset: AssetRecord, store: OriginalsStore): Promise<void> => {
  const keys = editedKeys(asset);
  await store.delete([{ key: keys.fullsize }, { key: keys.preview }, { key: keys.thumbnail }]);
};

const removeEdits = async (asset: AssetRecord, store: OriginalsStore): Promise<void> => {
  await removeEditedFiles(asset, store);
  editsReady(asset);
};

/** The edited files of an asset with edits (as read just before), recorded only while those are still its edits. */
export const renderEdits = async (
  asset: AssetRecord,
  store: OriginalsStore,
  settings: SystemConfig['thumbnail'],
): Promise<MediaOutcome> => {
  if (asset.type !== 'IMAGE') return 'unsupported';
  const original = await store.get(asset.originalPath);
  if (!original) return 'gone';
  const keys = editedKeys(asset);
  const source = isRaw(asset.originalFileName) ? embeddedPreview(original) : original;
  const edited = source
    ? await renderEdited(
        source,
        asset.edits,
        settings,
        isRaw(asset.originalFileName) ? { orientation: Number(asset.exif.orientation ?? 1) } : {},
      ).catch((error: unknown) => {
        log.warn('No edited image for an asset its decoder cannot read', { assetId: asset.id, error: String(error) });
        return undefined;
      })
    : undefined;
  if (!edited) return 'unsupported';
  const stored = [
    await store.put(keys.fullsize, edited.fullsize, 'image/jpeg'),
    await store.put(keys.preview, edited.preview, 'image/jpeg'),
    await store.put(keys.thumbnail, edited.thumbnail, 'image/webp'),
  ];
  const recorded = await assetRepo.recordEditedMedia(asset.id, asset.edits, {
    editedFullsizePath: keys.fullsize,
    editedPreviewPath: keys.preview,
    editedThumbnailPath: keys.thumbnail,
    thumbhash: edited.thumbhash.toString('base64'),
  });
  // Edits changed meanwhile: their own job makes their files (the same keys), so these are left to it.
  if (!recorded.ok && !(await assetRepo.get(asset.id))) await store.delete(stored);
  if (recorded.ok) editsReady(asset);
  return recorded.ok ? 'made' : 'gone';
};

export const editsStep: MediaStep = {
  name: 'edits',
  skip: (_settings, { asset }) => asset.edits.length === 0,
  run: async ({ asset, store, settings }) => {
    // The edits as they are now. Removed meanwhile: the previews just made are the unedited ones,
    // so the edited files go and the owner's apps are told.
    const current = await assetRepo.get(asset.id);
    if (current && current.edits.length > 0) await renderEdits(current, store, settings.thumbnail);
    else if (current) await removeEdits(current, store);
    return undefined;
  },
};
