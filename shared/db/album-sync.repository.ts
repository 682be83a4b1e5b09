/**
 * A user's album sync marker (docs/data-model.md, "Album summaries"): one item per user,
 * `USER#<userId>` / `ALBUMSYNC`, whose `changeId` is at least the change id of every change the
 * sync stream's album types send them (an album of theirs or shared with them: the album, its
 * users, its entries, their deletions, the album's deletion), and `shared` whether any album they
 * have has another user (a user it is shared with, its owner, or the owner of an asset in it;
 * absent: not known). A sync that finds it at least the settling time
 * before the session's last completed sync reads none of their albums (shared/services/sync/albums.ts,
 * `albumsQuiet`). Apart from album.repository.ts
 * and without the album model, for the asset functions that move assets out of albums.
 */
import { newChangeId } from './changes.ts';
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import { queryAll } from './query.ts';
import { tryWriteOne, updateWrite, type Write } from './transact.ts';

export interface AlbumSyncMark {
  changeId: string;
  /**
   * Whether an album the user has has another user (its owner, a user it is shared with, or the
   * owner of an asset in it: a partner's photo); absent: not known.
   */
  shared?: boolean | undefined;
  /**
   * A sync read their albums and gave each album's summary item its owner (`ownerId`), so that a
   * writer knowing only an album's id moves its owner's marker (`usersOfAlbum`), under the stack's
   * functions as deployed now (`learnt` holds the deployment's generation it was learnt under):
   * only then is the marker trusted.
   */
  learnt?: boolean | undefined;
  /**
   * The other users of the albums the user has (their owners, the users they are shared with and
   * the owners of their entries' assets), as the sync that learnt the marker read them; absent: not
   * known (a share since, or an asset of another user added, which may have given the user's albums
   * another user, removes it).
   */
  others?: readonly string[] | undefined;
}

/**
 * How long after a sync first saw a deployment's generation a marker may be learnt under it: a
 * function's run started before the deploy replaced it (its old code moves no marker, or moves
 * them otherwise) can go on for up to Lambda's 15 minutes, and the settling time after.
 */
export const deployDrainMs = 16 * 60_000;

/**
 * The generation of the stack's functions (SYSTEM / DEPLOYMENT), written by the deploy once every
 * function runs the new code (infra/cdk/deployment-mark.ts); `none` where nothing writes it (the
 * local server). A marker learnt under an earlier one, or while a deploy was replacing the
 * functions (an old function's album write moves no marker), is learnt again, and only once the
 * runs of the old functions are over (`learnable`): the first sync to read a generation records
 * when (`seenAt`), and markers are learnt under it `deployDrainMs` after that.
 */
export const deploymentState = async (): Promise<{ generation: string; learnable: boolean }> => {
  const item = await getItem(keys.deployment());
  if (typeof item?.generation !== 'string') return { generation: 'none', learnable: true };
  const generation = item.generation;
  if (typeof item.seenAt === 'number') return { generation, learnable: Date.now() - item.seenAt >= deployDrainMs };
  // The first to read it: when, kept only while it is still this generation and none recorded it first.
  await tryWriteOne(
    updateWrite(keys.deployment(), 'SET seenAt = :now', {
      condition: 'generation = :generation AND attribute_not_exists(seenAt)',
      values: { ':now': Date.now(), ':generation': generation },
      refusal: 'changed',
    }),
  );
  return { generation, learnable: false };
};

/** A user's marker as a sync reads it, with the deployment's generation read with it (what `learn` records) and whether markers may be learnt under it yet. */
export interface MarkerRead {
  mark: AlbumSyncMark | undefined;
  generation: string;
  learnable: boolean;
}

/**
 * Moves the markers of the users of an album (its owner and the users it is shared with, as read;
 * one that leaves it too) before a write of it: to a change id made after the write's own (so at
 * least theirs). Written just before the write rather than in its transaction (which an album of
 * many users would take past DynamoDB's 100 items): a marker moved for a write that then fails only
 * costs the next sync a read. `shared`: the write shares the album, or adds an asset of a user who
 * is not one of its users (the users now have another, and who their albums' other users are is no
 * longer known).
 */
export const moveMarkers = async (userIds: Iterable<string>, options: { shared?: boolean } = {}): Promise<void> => {
  await Promise.all(markerWrites(userIds, options).map((write) => tryWriteOne(write)));
};

/** The same moves as writes, for a transaction that has room for them (made after its other writes: their change id is later). */
export const markerWrites = (userIds: Iterable<string>, options: { shared?: boolean } = {}): Write[] => {
  const id = newChangeId();
  return [...new Set(userIds)].map((userId) =>
    updateWrite(
      keys.albumSyncMark(userId),
      `SET #type = :type, changeId = :id${options.shared ? ', #shared = :true REMOVE #others' : ''}`,
      {
        names: { '#type': 'type', ...(options.shared ? { '#shared': 'shared', '#others': 'others' } : {}) },
        values: { ':type': 'albumSyncMark', ':id': id, ...(options.shared ? { ':true': true } : {}) },
      },
    ),
  );
};

/**
 * The users of an album known only by its id (an asset leaving it): its owner (its summary item's
 * `ownerId`; else `fallback`, the asset's owner: an album no one shares is its owner's alone) and
 * the users it is shared with (Query `ALBUM#<albumId>` USER#, a deleted owner's shares too).
 */
export const usersOfAlbum = async (albumId: string, fallback: string): Promise<string[]> => {
  const [summary, users] = await Promise.all([
    getItem(keys.albumSummary(albumId)),
    queryAll({ value: keys.albumUser(albumId, '').pk, prefix: 'USER#' }, { attributes: ['userId', 'ownerId'] }),
  ]);
  const owner =
    typeof summary?.ownerId === 'string' ? summary.ownerId : (users.find((user) => typeof user.ownerId === 'string')?.ownerId ?? fallback);
  return [String(owner), ...users.map((user) => String(user.userId))];
};

/**
 * A user's marker (GetItem, consistent; `mark` undefined for a user none of whose albums changed
 * since markers: a table from before), and the deployment's generation (GetItem, consistent),
 * read together: `learnt` only when learnt under that generation.
 */
export const readMarker = async (userId: string): Promise<MarkerRead> => {
  const [item, { generation, learnable }] = await Promise.all([getItem(keys.albumSyncMark(userId)), deploymentState()]);
  if (typeof item?.changeId !== 'string') return { mark: undefined, generation, learnable };
  const mark = {
    changeId: item.changeId,
    shared: typeof item.shared === 'boolean' ? item.shared : undefined,
    learnt: item.learnt === generation ? true : undefined,
    others: Array.isArray(item.others) ? item.others.map(String) : undefined,
  };
  return { mark, generation, learnable };
};

/** Whether a sync may trust the marker (docs/data-model.md, "Album summaries"). */
export const trusted = (mark: AlbumSyncMark | undefined): mark is AlbumSyncMark & { shared: boolean } =>
  mark?.learnt === true && typeof mark.shared === 'boolean';

/** Whether the marker is trusted and says what the albums show: whether one has another user, and who. */
export const knows = (mark: AlbumSyncMark | undefined, albums: { shared: boolean; others: readonly string[] }): boolean =>
  trusted(mark) &&
  mark.shared === albums.shared &&
  mark.others !== undefined &&
  mark.others.length === albums.others.length &&
  albums.others.every((userId) => mark.others?.includes(userId));

/**
 * What a sync that read the user's albums learnt: whether one has another user; the owners of
 * those whose summary item does not name it (`unowned`, written on them first); for a user without
 * a marker, one (`readFrom`: a change id made before the albums were read, so at least every change
 * they showed). Kept only while the marker is still as read (`seen`), so no write of their albums
 * came meanwhile; else left for the next sync.
 */
export const learn = async (
  userId: string,
  seen: AlbumSyncMark | undefined,
  albums: {
    shared: boolean;
    others: readonly string[];
    readFrom: string;
    unowned: readonly { albumId: string; ownerId: string }[];
    generation: string;
    learnable: boolean;
  },
): Promise<void> => {
  if (knows(seen, albums) && albums.unowned.length === 0) return;
  await Promise.all(
    albums.unowned.map(({ albumId, ownerId }) =>
      tryWriteOne(updateWrite(keys.albumSummary(albumId), 'SET ownerId = :ownerId', { values: { ':ownerId': ownerId } })),
    ),
  );
  // Not under a generation whose old functions may still run: left for a later sync.
  if (!albums.learnable) return;
  // Refused (a write of their albums came meanwhile, or another sync learnt it first): left as it is.
  await tryWriteOne(
    updateWrite(
      keys.albumSyncMark(userId),
      seen
        ? 'SET #shared = :shared, #learnt = :generation, #others = :others'
        : 'SET #type = :type, changeId = :id, #shared = :shared, #learnt = :generation, #others = :others',
      {
        condition: seen ? 'changeId = :seen' : 'attribute_not_exists(changeId)',
        // Attribute names that DynamoDB reserves (`shared`) or may: always by name.
        names: { '#shared': 'shared', '#learnt': 'learnt', '#others': 'others', ...(seen ? {} : { '#type': 'type' }) },
        values: {
          ':shared': albums.shared,
          ':generation': albums.generation,
          ':others': [...albums.others].sort(),
          ...(seen ? { ':seen': seen.changeId } : { ':type': 'albumSyncMark', ':id': albums.readFrom }),
        },
        refusal: 'changed',
      },
    ),
  );
};

/** Forgets users' markers (the library's migration gave their albums' entries change ids they do not cover). */
export const forgetMarkers = async (userIds: Iterable<string>): Promise<void> => {
  await Promise.all(
    [...new Set(userIds)].map((userId) =>
      tryWriteOne(
        updateWrite(keys.albumSyncMark(userId), 'REMOVE changeId, #shared, #learnt, #others', {
          names: { '#shared': 'shared', '#learnt': 'learnt', '#others': 'others' },
        }),
      ),
    ),
  );
};
