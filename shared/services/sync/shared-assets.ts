import type { Change, Window } from '../../db/sync.repository.ts';
import * as syncRepo from '../../db/sync.repository.ts';
import type { Membership, PartnerShare } from '../../db/sync-relations.repository.ts';
import * as syncRelationsRepo from '../../db/sync-relations.repository.ts';
import type { AssetRecord } from '../../model/asset.ts';
import type { SyncEntityType, SyncEvent } from '../../model/sync.ts';
import { albumOthers, albumsOf, albumsQuiet, albumsUnshared, albumUsersBut, changedWithin } from './albums.ts';
import { exif, exifChanged, isLocked, partnerExifChanged, unlessLocked, withAssets } from './assets.ts';
import {
  backfill,
  type Context,
  everyChange,
  none,
  type Pick,
  presentOf,
  sendDeletionRun,
  sendPicked,
  type TypeSyncs,
  windowOf,
} from './mechanics.ts';

/**
 * The deletions of the assets the partners and the albums' other users moved into their locked
 * folder, for the caller's PartnerAssetDeleteV1 run (the app's handling of it drops its copy of
 * the asset, whoever owns it): every one of a partner's, and those of another user that were in
 * one of the caller's albums then (the caller had them through it); none to an app that never
 * synced a partner's (or an album's) assets, which never had them. Without a checkpoint of its
 * deletions, an app that completed a sync had no such deletion then (it would have acked it):
 * those before it are of assets it never had (locked before it first synced them), and are not sent.
 */
const lockedAway = async (context: Context, partners: readonly { sharedById: string }[]) => {
  const window: Window = {
    after: (context.checkpoints.PartnerAssetDeleteV1 ?? context.checkpoints.SyncCompleteV1)?.updateId,
    before: context.nowId,
  };
  const synced = (...types: SyncEntityType[]) => types.some((type) => context.checkpoints[type] !== undefined);
  const partnerIds = new Set(synced('PartnerAssetV2', 'PartnerAssetBackfillV2') ? partners.map((partner) => partner.sharedById) : []);
  // The albums' other users: none when no album of the user's has another (their album sync
  // marker), those the marker knows, else those their albums show.
  const unshared = !synced('AlbumAssetCreateV2', 'AlbumAssetBackfillV2') || (await albumsUnshared(context));
  const known = unshared ? [] : await albumOthers(context);
  const others = new Set(known ?? albumUsersBut(await albumsOf(context), context.userId));
  for (const partnerId of partnerIds) others.delete(partnerId);
  // The user's albums, read at the first deletion of an asset that was in an album.
  let albumIds: Promise<Set<string>> | undefined;
  const fromAlbums = async function* (ownerId: string) {
    for await (const change of syncRepo.lockedAssetDeletions(ownerId, window)) {
      if (change.record.albumIds.length === 0) continue;
      albumIds ??= albumsOf(context).then((albums) => new Set(albums.map((album) => album.albumId)));
      const ids = await albumIds;
      if (change.record.albumIds.some((albumId) => ids.has(albumId))) yield change;
    }
  };
  return [...[...partnerIds].map((ownerId) => syncRepo.lockedAssetDeletions(ownerId, window)), ...[...others].map(fromAlbums)];
};

/** The album-asset types (assets, or their EXIF): backfill, updates of known entries, new entries. */
const syncAlbumAssets = async (
  context: Context,
  albums: readonly Membership[],
  types: { backfill: SyncEntityType; update: SyncEntityType; create: SyncEntityType },
  map: (asset: AssetRecord) => SyncEvent['data'],
  pickUpdates: Pick = everyChange,
) => {
  await backfill(context, albums, { backfill: types.backfill, upsert: types.create }, (album, window) =>
    (async function* () {
      for await (const change of withAssets(syncRepo.albumEntryChanges(album.albumId, window)))
        if (!isLocked(change.asset)) yield { updateId: change.updateId, data: map(change.asset) };
    })(),
  );
  const createCheckpoint = context.checkpoints[types.create];
  if (createCheckpoint) {
    // Assets of the albums' other users that changed: each checked against the albums (its entries).
    // Those in none of them go through the run unpicked, so it acks past them (a later entry of one
    // is a create) and the next sync does not read them again.
    const albumIds = new Set(albums.map((album) => album.albumId));
    const others = albumUsersBut(albums, context.userId);
    const window = presentOf(context, types.update);
    const outside = new WeakSet<object>();
    const checked = async function* () {
      for await (const change of syncRepo.mergeInOrder(
        [...others].map((userId) => syncRepo.assetChanges(userId, window)),
        (change) => change.updateId,
      )) {
        const entries = (change.record.albumCount ?? 0) === 0 ? [] : await syncRelationsRepo.assetAlbums(change.record.id);
        if (!entries.some((entry) => albumIds.has(entry.albumId) && entry.updateId <= createCheckpoint.updateId)) outside.add(change);
        yield change;
      }
    };
    const pick = unlessLocked(pickUpdates);
    await sendPicked(context, types.update, checked(), window, (change, within) => !outside.has(change) && pick(change, within), map);
  }
  let first = true;
  const window = presentOf(context, types.create);
  for await (const change of withAssets(
    syncRepo.mergeInOrder(
      changedWithin(albums, 'entries', window).map((album) => syncRepo.albumEntryChanges(album.albumId, window)),
      (change) => change.updateId,
    ),
  )) {
    if (isLocked(change.asset)) continue;
    if (first) {
      await context.send('SyncAckV1', none, { type: types.update, updateId: context.nowId });
      first = false;
    }
    await context.send(types.create, map(change.asset), { type: types.create, updateId: change.updateId });
  }
};

/**
 * Whether the album-asset types (`create`, `update`) have nothing to send, without reading the
 * user's albums (docs/data-model.md, "Album summaries"): nothing of the albums changed (their album
 * sync marker), and either no album has another user, or the marker knows the other users and none
 * of their assets that is in an album (any album: an asset in none cannot be in the user's)
 * changed since the update type's checkpoint. Else the albums are read, as before.
 */
const albumAssetsQuiet = async (context: Context, types: { create: SyncEntityType; update: SyncEntityType }): Promise<boolean> => {
  if (await albumsQuiet(context, [types.create], { unshared: true })) return true;
  if (context.checkpoints[types.update] === undefined || !(await albumsQuiet(context, [types.create]))) return false;
  const others = await albumOthers(context);
  if (!others) return false;
  const window = presentOf(context, types.update);
  let last: string | undefined;
  for (const userId of others)
    for await (const change of syncRepo.assetChanges(userId, window)) {
      if ((change.record.albumCount ?? 0) > 0) return false;
      if (last === undefined || change.updateId > last) last = change.updateId;
    }
  // Acked past what was read (none of it sent), as a run that picked none of its changes is, so the
  // next sync does not read it again; never past the snapshot.
  if (last !== undefined)
    await context.send('SyncAckV1', none, { type: types.update, updateId: last > context.nowId ? context.nowId : last });
  return true;
};

/** The partner-asset types (assets, or their EXIF): backfill of new partners, then every partner's changes. */
const syncPartnerAssets = async (
  context: Context,
  partners: readonly PartnerShare[],
  types: { backfill: SyncEntityType; upsert: SyncEntityType },
  map: (asset: AssetRecord) => SyncEvent['data'],
  pickUpserts: Pick = everyChange,
) => {
  await backfill(context, partners, types, (partner, window) =>
    (async function* () {
      for await (const change of syncRepo.assetChanges(partner.sharedById, window))
        if (!isLocked(change.record)) yield { updateId: change.updateId, data: map(change.record) };
    })(),
  );
  const window = presentOf(context, types.upsert);
  await sendPicked(
    context,
    types.upsert,
    syncRepo.mergeInOrder(
      partners.map((partner) => syncRepo.assetChanges(partner.sharedById, window)),
      (change) => change.updateId,
    ),
    window,
    unlessLocked(pickUpserts),
    map,
  );
};

/** The partners' and the albums' assets and their EXIF. */
export const sharedAssetTypes: TypeSyncs = {
  PartnerAssetsV2: async (context) => {
    const partners = await context.partners();
    const window = windowOf(context, 'PartnerAssetDeleteV1');
    await sendDeletionRun(
      context,
      'PartnerAssetDeleteV1',
      [
        ...partners.map((partner): AsyncIterable<Change<{ assetId?: string }>> => syncRepo.deletionsOf.assets(partner.sharedById, window)),
        ...(await lockedAway(context, partners)),
      ],
      ({ assetId }) => ({ assetId }),
    );
    await syncPartnerAssets(context, partners, { backfill: 'PartnerAssetBackfillV2', upsert: 'PartnerAssetV2' }, (asset) => ({
      kind: 'asset',
      asset,
      favorite: false,
    }));
  },
  AlbumAssetsV2: async (context) => {
    if (await albumAssetsQuiet(context, { create: 'AlbumAssetCreateV2', update: 'AlbumAssetUpdateV2' })) return;
    await syncAlbumAssets(
      context,
      await albumsOf(context),
      { backfill: 'AlbumAssetBackfillV2', update: 'AlbumAssetUpdateV2', create: 'AlbumAssetCreateV2' },
      (asset) => ({ kind: 'asset', asset, favorite: asset.ownerId === context.userId }),
    );
  },
  AlbumAssetExifsV1: async (context) => {
    if (await albumAssetsQuiet(context, { create: 'AlbumAssetExifCreateV1', update: 'AlbumAssetExifUpdateV1' })) return;
    await syncAlbumAssets(
      context,
      await albumsOf(context),
      { backfill: 'AlbumAssetExifBackfillV1', update: 'AlbumAssetExifUpdateV1', create: 'AlbumAssetExifCreateV1' },
      exif,
      exifChanged,
    );
  },
  PartnerAssetExifsV1: async (context) =>
    syncPartnerAssets(
      context,
      await context.partners(),
      { backfill: 'PartnerAssetExifBackfillV1', upsert: 'PartnerAssetExifV1' },
      exif,
      partnerExifChanged,
    ),
};
