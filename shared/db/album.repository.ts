import type { AlbumMember, AlbumRecord } from '../model/album.ts';
import { newestLiveMember } from '../model/album.ts';
import type { AssetRecord } from '../model/asset.ts';
import { batchDelete } from './batch.ts';
import { albumCodec, albumMemberCodec, albumWrites } from './entities/album.ts';
import { auditWrites } from './entities/audit.ts';
import { getItem } from './get.ts';
import { chunk } from './items.ts';
import { keys, partitions } from './keys.ts';
import { queryAll } from './query.ts';
import { checkWrite, deleteWrite, isCancelled, transact, transactGroups, writeOne } from './transact.ts';

export const getAlbum = async (ownerId: string, albumId: string): Promise<AlbumRecord | undefined> => {
  const item = await getItem(keys.album(ownerId, albumId));
  return item ? albumCodec.read(item) : undefined;
};

export const listAlbums = async (ownerId: string): Promise<AlbumRecord[]> =>
  (await queryAll(partitions.userAlbums(ownerId))).map(albumCodec.read);

/** Every entry of an album: one Query on the album's partition. */
export const listMembers = async (albumId: string): Promise<AlbumMember[]> =>
  (await queryAll(partitions.albumAssets(albumId))).map(albumMemberCodec.read);

/** The ids of the albums an asset is in (gsi2). */
export const listAlbumIdsOfAsset = async (assetId: string): Promise<string[]> =>
  (await queryAll(partitions.assetAlbums(assetId), { attributes: ['albumId'] })).map((item) => String(item.albumId));

/**
 * Creates an album with its first assets: the album and up to 49 entries (each with its asset's
 * album count) are one transaction; further entries follow 50 a transaction, and if one fails
 * everything written is undone, so a failed create leaves nothing.
 */
export const createAlbum = async (album: AlbumRecord, assets: readonly AssetRecord[]): Promise<void> => {
  const [first = [], ...rest] = [assets.slice(0, 49), ...chunk(assets.slice(49), 50)];
  await transact([albumWrites.create(album), ...first.flatMap((asset) => albumWrites.join(album.id, asset, album.createdAt))]);
  const done: AssetRecord[] = [...first];
  try {
    for (const part of rest) {
      await transact(part.flatMap((asset) => albumWrites.join(album.id, asset, album.createdAt)));
      done.push(...part);
    }
  } catch (error) {
    for (const part of chunk(done, 50)) await transact(part.flatMap((asset) => albumWrites.leave(album.id, asset.id)));
    await batchDelete([keys.album(album.ownerId, album.id)]);
    throw error;
  }
};

/** What became of one asset of an add or a remove: written, or the condition that stopped it. */
export type MemberOutcome = 'done' | 'member-condition' | 'asset-missing';

const outcomeOf = (failedAt: number | undefined): MemberOutcome =>
  failedAt === undefined ? 'done' : failedAt === 0 ? 'member-condition' : 'asset-missing';

/**
 * Adds entries, each with its asset's album count, each asset's pair of writes all or nothing:
 * an entry a concurrent request added first is `member-condition` (already in), an asset deleted
 * meanwhile `asset-missing`, and what is reported as done is exactly what was written.
 */
export const addMembers = async (album: AlbumRecord, assets: readonly AssetRecord[]): Promise<MemberOutcome[]> => {
  const now = new Date().toISOString();
  return (await transactGroups(assets.map((asset) => albumWrites.join(album.id, asset, now)))).map(outcomeOf);
};

/** Removes entries, as `addMembers` adds them: an entry already gone is `member-condition`. */
export const removeMembers = async (album: AlbumRecord, assetIds: readonly string[]): Promise<MemberOutcome[]> =>
  (await transactGroups(assetIds.map((assetId) => albumWrites.leave(album.id, assetId)))).map(outcomeOf);

/**
 * Sets the album's thumbnail and `updatedAt`. A thumbnail is set only while its asset exists
 * (checked in the same transaction), so a concurrent delete for good can never leave the album
 * pointing at it: then the newest asset still in the album is taken instead (Immich's choice).
 */
export const touchAlbum = async (album: AlbumRecord, thumbnailId: string | null, now: string): Promise<void> => {
  let thumbnail = thumbnailId;
  for (let attempt = 0; thumbnail !== null && attempt < 3; attempt++) {
    try {
      await transact([albumWrites.touch(album, thumbnail, now), checkWrite(keys.asset(thumbnail), { condition: 'attribute_exists(pk)' })]);
      return;
    } catch (error) {
      if (!isCancelled(error)) throw error;
      thumbnail = newestLiveMember(await listMembers(album.id));
    }
  }
  await writeOne(albumWrites.touch(album, thumbnail, now));
};

export class AlbumChangedError extends Error {}

/**
 * Sets the album's own fields. A new thumbnail must be in the album when written (checked in the
 * same transaction), so a concurrent removal cannot leave the album pointing elsewhere.
 */
export const updateAlbumFields = async (album: AlbumRecord, fields: Partial<AlbumRecord>): Promise<void> => {
  const thumbnail = fields.albumThumbnailAssetId;
  try {
    await transact([
      albumWrites.set(album, fields),
      ...(thumbnail ? [checkWrite(keys.albumAsset(album.id, thumbnail), { condition: 'attribute_exists(pk)' })] : []),
    ]);
  } catch (error) {
    if (isCancelled(error)) throw new AlbumChangedError();
    throw error;
  }
};

/**
 * Deletes the album item, only while no shared link points at it (its `sharedLinkCount` is kept
 * exact with the links): a link made meanwhile makes this fail, so no link is left pointing at a
 * deleted album. Entries are removed afterwards (removeMembers), once no request can add more.
 */
export const deleteAlbumItem = async (album: AlbumRecord): Promise<void> => {
  await transact([
    deleteWrite(keys.album(album.ownerId, album.id), {
      condition: 'attribute_exists(pk) AND (attribute_not_exists(sharedLinkCount) OR sharedLinkCount = :zero)',
      values: { ':zero': 0 },
      onConditionFailed: () => new AlbumChangedError(),
    }),
    // The apps' sync learns of it (GET /audit/deletes?entityType=ALBUM).
    auditWrites.deleted(album.ownerId, 'ALBUM', album.id),
  ]);
};
