import type { Change, Window } from '../../db/sync.repository.ts';
import * as syncRepo from '../../db/sync.repository.ts';
import type { Membership, PartnerShare } from '../../db/sync-relations.repository.ts';
import * as syncRelationsRepo from '../../db/sync-relations.repository.ts';
import type { AssetRecord } from '../../model/asset.ts';
import type { SyncEntityType, SyncEvent } from '../../model/sync.ts';
import { albumsOf, albumsQuiet, albumsUnshared, changedWithin } from './albums.ts';
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

/** The owners and members of `albums`, but `userId`. */
const albumUsersBut = (albums: readonly { ownerId: string; sharedUserIds: readonly string[] }[], userId: string): Set<string> => {
  const users = new Set<string>();
  for (const album of albums) {
    users.add(album.ownerId);
    for (const member of album.sharedUserIds) users.add(member);
  }
  users.delete(userId);
  return users;
};

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
  // No album of the user's has another user (their album sync marker): none of these can be theirs through one.
  const albums = synced('AlbumAssetCreateV2', 'AlbumAssetBackfillV2') && !(await albumsUnshared(context)) ? await albumsOf(context) : [];
  const albumIds = new Set(albums.map((album) => album.albumId));
  const others = albumUsersBut(albums, context.userId);
  for (const partnerId of partnerIds) others.delete(partnerId);
  const fromAlbums = async function* (ownerId: string) {
    for await (const change of syncRepo.lockedAssetDeletions(ownerId, window))
      if (change.record.albumIds.some((albumId) => albumIds.has(albumId))) yield change;
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
    const albumIds = new Set(albums.map((album) => album.albumId));
    const others = albumUsersBut(albums, context.userId);
    const window = presentOf(context, types.update);
    const inKnownAlbums = async function* () {
      for await (const change of syncRepo.mergeInOrder(
        [...others].map((userId) => syncRepo.assetChanges(userId, window)),
        (change) => change.updateId,
      )) {
        if ((change.record.albumCount ?? 0) === 0) continue;
        const entries = await syncRelationsRepo.assetAlbums(change.record.id);
        if (entries.some((entry) => albumIds.has(entry.albumId) && entry.updateId <= createCheckpoint.updateId)) yield change;
      }
    };
    await sendPicked(context, types.update, inKnownAlbums(), window, unlessLocked(pickUpdates), map);
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
    // Nothing new in the user's albums, none of which has another user whose assets could change (docs/data-model.md, "Album summaries").
    if (await albumsQuiet(context, ['AlbumAssetCreateV2'], { unshared: true })) return;
    await syncAlbumAssets(
      context,
      await albumsOf(context),
      { backfill: 'AlbumAssetBackfillV2', update: 'AlbumAssetUpdateV2', create: 'AlbumAssetCreateV2' },
      (asset) => ({ kind: 'asset', asset, favorite: asset.ownerId === context.userId }),
    );
  },
  AlbumAssetExifsV1: async (context) => {
    if (await albumsQuiet(context, ['AlbumAssetExifCreateV1'], { unshared: true })) return;
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
