import type { Change, Window } from '../../db/sync.repository.ts';
import * as syncRepo from '../../db/sync.repository.ts';
import * as syncRelationsRepo from '../../db/sync-relations.repository.ts';
import type { AssetRecord } from '../../model/asset.ts';
import type { SyncEvent } from '../../model/sync.ts';
import { type Pick, presentOf, sendChanges, sendDeletions, sendPicked, type TypeSyncs } from './mechanics.ts';

/**
 * What others never get of an asset in its owner's locked folder (docs/immich-compatibility.md,
 * "The locked folder"): no partner's or album's line carries one. Its move in sent them its
 * deletion (`lockedAway`, shared/services/sync/shared-assets.ts); its move out sends it, and its EXIF, again.
 */
export const isLocked = (asset: AssetRecord): boolean => asset.visibility === 'locked';

export const exif = (asset: AssetRecord): SyncEvent['data'] => ({ kind: 'exif', asset });

/** Immich sends an asset's EXIF when its EXIF row changed, not when the asset did (a favourite, a trash). */
export const exifChanged: Pick = (change, window) => change.partIds?.exif === undefined || syncRepo.inWindow(change.partIds.exif, window);
/**
 * A partner's: also when it came out of the locked folder, so it comes with its EXIF (which the
 * partner's app dropped with the asset when it went in).
 */
export const partnerExifChanged: Pick = (change, window) =>
  exifChanged(change, window) || (change.partIds?.unlock !== undefined && syncRepo.inWindow(change.partIds.unlock, window));
/** Others' changes: none of an asset in its owner's locked folder. */
export const unlessLocked =
  (pick: Pick): Pick =>
  (change, window) =>
    !isLocked(change.record) && pick(change, window);

/** Items to rows, reading their assets a batch at a time (BatchGetItem), in the items' order. */
export async function* withAssets<T extends { assetId: string }>(
  changes: AsyncIterable<Change<T>>,
): AsyncGenerator<Change<T> & { asset: AssetRecord }> {
  let batch: Change<T>[] = [];
  const flush = async function* () {
    const found = new Map(
      (await syncRelationsRepo.assetsById(batch.map((change) => change.record.assetId))).map((asset) => [asset.id, asset]),
    );
    for (const change of batch) {
      const asset = found.get(change.record.assetId);
      if (asset) yield { ...change, asset };
    }
    batch = [];
  };
  for await (const change of changes) {
    batch.push(change);
    if (batch.length >= 100) yield* flush();
  }
  if (batch.length > 0) yield* flush();
}

/** The user's own assets and their EXIF. */
export const ownAssetTypes: TypeSyncs = {
  AssetsV2: async (context) => {
    await sendDeletions(
      context,
      'AssetDeleteV1',
      (window) => [syncRepo.deletionsOf.assets(context.userId, window)],
      ({ assetId }) => ({ assetId }),
    );
    await sendChanges(context, 'AssetV2', syncRepo.assetChanges(context.userId, presentOf(context, 'AssetV2')), (asset) => ({
      kind: 'asset',
      asset,
      favorite: true,
    }));
  },
  AssetExifsV1: async (context) => {
    const window: Window = presentOf(context, 'AssetExifV1');
    await sendPicked(context, 'AssetExifV1', syncRepo.assetChanges(context.userId, window), window, exifChanged, exif);
  },
};
