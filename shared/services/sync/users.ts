import type { Change } from '../../db/sync.repository.ts';
import * as syncRepo from '../../db/sync.repository.ts';
import * as syncRelationsRepo from '../../db/sync-relations.repository.ts';
import { storedPreferencesOf } from '../../domain/preferences.ts';
import type { UserRecord } from '../../model/user.ts';
import { albumsOf } from './albums.ts';
import { byUpdateId, type Context, fields, presentOf, sendDeletions, type TypeSyncs, windowOf } from './mechanics.ts';

const later = (a: string, b: string): string => (a > b ? a : b);

/**
 * The users a user is connected to, with `server.publicUsers` off (docs/immich-compatibility.md,
 * "The sync stream"), each with the change id since which they are (the earliest of their
 * connections): the user themself (always), the partners of either direction, the users of their
 * albums (the owner and those it is shared with), and the owners of the assets that entered their
 * albums since the type's checkpoint (every entry's, for an album gained since then): a user who
 * left an album leaves their photos in it, and the app's assets need their owner's row.
 */
const connectionsOf = async (context: Context): Promise<Map<string, string>> => {
  const connections = new Map<string, string>([[context.userId, '']]);
  const connect = (userId: string, since: string) => {
    const known = connections.get(userId);
    if (known === undefined || since < known) connections.set(userId, since);
  };
  const { sharingWith, sharedBy } = await context.partnerShares();
  for (const share of sharingWith) connect(share.sharedById, share.createId);
  for (const share of sharedBy) connect(share.sharedWithId, share.createId);
  const window = windowOf(context, 'UserV1');
  for (const album of await albumsOf(context)) {
    connect(album.ownerId, album.createId);
    const gained = syncRepo.inWindow(album.createId, window);
    if (
      !gained &&
      syncRelationsRepo.albumUnchangedSince(album, 'entries', window.after) &&
      syncRelationsRepo.albumUnchangedSince(album, 'users', window.after)
    ) {
      // Nothing of it changed since the checkpoint (docs/data-model.md, "Album summaries"): its users
      // are those on the album, connected since before the checkpoint (the album's creation is as
      // good as their share's for that), and no entry came in the window.
      for (const userId of album.sharedUserIds) connect(userId, album.createId);
      continue;
    }
    // An album shared with no one has no users' items to read.
    for (const user of album.sharedUserIds.length > 0 ? await syncRelationsRepo.albumUsers(album.albumId) : [])
      connect(user.userId, later(album.createId, user.createId));
    const entries = new Map<string, string>();
    for await (const change of syncRepo.albumEntryChanges(album.albumId, gained ? { before: context.nowId } : window))
      if (!entries.has(change.record.assetId)) entries.set(change.record.assetId, change.updateId);
    for (let start = 0; start < entries.size; start += 100) {
      const batch = [...entries].slice(start, start + 100);
      const owners = await syncRelationsRepo.assetOwners(batch.map(([assetId]) => assetId));
      for (const [assetId, updateId] of batch) {
        const ownerId = owners.get(assetId);
        if (ownerId) connect(ownerId, later(album.createId, updateId));
      }
    }
  }
  return connections;
};

/** The users connected since the type's checkpoint (before the snapshot), as they are now, in that order. */
async function* newlyConnected(context: Context, connections: ReadonlyMap<string, string>): AsyncGenerator<Change<UserRecord>> {
  const window = windowOf(context, 'UserV1');
  const fresh = [...connections].filter(([, since]) => since !== '' && syncRepo.inWindow(since, window));
  const users = new Map((await syncRelationsRepo.usersById(fresh.map(([userId]) => userId))).map((user) => [user.id, user]));
  for (const [userId, since] of fresh.sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))) {
    const user = users.get(userId);
    if (user) yield { updateId: since, record: user };
  }
}

/** The user themself, the users they see, their partners and their metadata. */
export const userTypes: TypeSyncs = {
  AuthUsersV1: async (context) => {
    const synced = await syncRelationsRepo.syncedUser(context.userId);
    if (synced && syncRepo.inWindow(synced.updateId, presentOf(context, 'AuthUserV1')))
      await context.send('AuthUserV1', { kind: 'authUser', user: synced.user }, { type: 'AuthUserV1', updateId: synced.updateId });
  },
  UsersV1: async (context) => {
    await sendDeletions(
      context,
      'UserDeleteV1',
      (window) => [syncRepo.deletionsOf.users(window)],
      ({ userId }) => ({ userId }),
    );
    if (context.seesAllUsers) {
      for await (const change of syncRepo.userChanges(presentOf(context, 'UserV1')))
        await context.send('UserV1', { kind: 'user', user: change.record }, { type: 'UserV1', updateId: change.updateId });
      return;
    }
    // Only the connected users: their changes, and each one as they are when they became connected.
    const connections = await connectionsOf(context);
    const connected = async function* () {
      for await (const change of syncRepo.userChanges(presentOf(context, 'UserV1'))) if (connections.has(change.record.id)) yield change;
    };
    for await (const change of syncRepo.mergeInOrder([connected(), newlyConnected(context, connections)], (change) => change.updateId))
      await context.send('UserV1', { kind: 'user', user: change.record }, { type: 'UserV1', updateId: change.updateId });
  },
  PartnersV1: async (context) => {
    await sendDeletions(
      context,
      'PartnerDeleteV1',
      (window) => [syncRepo.deletionsOf.partners(context.userId, window)],
      ({ sharedById, sharedWithId }) => ({ sharedById, sharedWithId }),
    );
    const { sharingWith, sharedBy } = await context.partnerShares();
    const window = presentOf(context, 'PartnerV1');
    const rows = [...sharingWith, ...sharedBy].filter((share) => syncRepo.inWindow(share.updateId, window)).sort(byUpdateId);
    for (const { updateId, sharedById, sharedWithId, inTimeline } of rows)
      await context.send('PartnerV1', fields({ sharedById, sharedWithId, inTimeline }), { type: 'PartnerV1', updateId });
  },
  UserMetadataV1: async (context) => {
    await sendDeletions(
      context,
      'UserMetadataDeleteV1',
      (window) => [syncRepo.deletionsOf.userMetadata(context.userId, window)],
      ({ userId, key }) => ({ userId, key }),
    );
    const synced = await syncRelationsRepo.syncedUser(context.userId);
    // The metadata's own change id: a change of the user's usage or name does not send it again.
    if (!synced || !syncRepo.inWindow(synced.metadataId, presentOf(context, 'UserMetadataV1'))) return;
    const { user, metadataId: updateId } = synced;
    // Immich's user_metadata rows: the preferences the user changed (as Immich stores them: what
    // differs from the defaults, memories off included), onboarding once done, the product key once activated.
    const preferences = storedPreferencesOf(user);
    if (preferences)
      await context.send('UserMetadataV1', fields({ userId: user.id, key: 'preferences', value: preferences }), {
        type: 'UserMetadataV1',
        updateId,
      });
    if (user.isOnboarded)
      await context.send('UserMetadataV1', fields({ userId: user.id, key: 'onboarding', value: { isOnboarded: true } }), {
        type: 'UserMetadataV1',
        updateId,
      });
    if (user.license)
      await context.send('UserMetadataV1', fields({ userId: user.id, key: 'license', value: user.license }), {
        type: 'UserMetadataV1',
        updateId,
      });
  },
};
