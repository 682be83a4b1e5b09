import { requireAlbum, requireAlbumUserRemoval } from '../../access/album-access.ts';
import { Permission } from '../../access/permission.ts';
import { Invalid } from '../../core/errors.ts';
import * as albumRepo from '../../db/album.repository.ts';
import type { AlbumRecord, AlbumShare, AlbumUserRole, AlbumView } from '../../model/album.ts';
import { rolesWith } from '../../model/album.ts';
import type { Auth } from '../../model/user.ts';
import { notifyAlbumInvite } from '../notification.service.ts';
import { albumChanged, sharingTargets, usersOf } from './album.service.ts';

// An album's users: shared with, their roles, leaving (the album itself: album.service.ts).

/** PUT /album/:id/users and PUT /albums/:id/users (the owner): shares the album with users in their roles; answered without assets. */
export const addUsersToAlbum = async (auth: Auth, id: string, shares: readonly AlbumShare[]): Promise<AlbumView> => {
  const album = await requireAlbum(auth, Permission.AlbumShare, id);
  const targets = new Set(
    (
      await sharingTargets(
        album,
        shares.map((share) => share.userId),
      )
    ).map((target) => target.id),
  );
  const added = shares.filter((share) => targets.has(share.userId));
  const now = new Date().toISOString();
  if (!(await albumRepo.shareAlbum(album, added, now)).ok) throw albumChanged();
  const updated: AlbumRecord = {
    ...album,
    sharedUserIds: [...album.sharedUserIds, ...added.map((share) => share.userId)],
    userRoles: rolesWith(album.userRoles, added),
    updatedAt: now,
  };
  const users = await usersOf(updated);
  // Only the owner shares an album (AlbumShare): the sender is the album's owner.
  await notifyAlbumInvite(
    album,
    added.map((share) => share.userId),
    users.owner.name,
  );
  return { album: updated, ...users, members: await albumRepo.listMembers(album.id) };
};

/** PUT /albums/:id/user/:userId (v3, the owner): a shared user's role. */
export const updateAlbumUser = async (auth: Auth, id: string, userId: string, role: AlbumUserRole): Promise<void> => {
  const album = await requireAlbum(auth, Permission.AlbumShare, id);
  if (userId === album.ownerId) throw new Invalid('User is owner');
  if (!album.sharedUserIds.includes(userId)) throw new Invalid('Album not shared with user');
  if (!(await albumRepo.setUserRole(album, { userId, role }, new Date().toISOString())).ok) throw albumChanged();
};

/**
 * DELETE /album/:id/user/:userId (`me` for oneself): the owner stops sharing with a user, or a
 * user leaves an album shared with them (Immich's rules and messages).
 */
export const removeUserFromAlbum = async (auth: Auth, id: string, userId: string): Promise<void> => {
  const target = userId === 'me' ? auth.user.id : userId;
  const album = await requireAlbum(auth, Permission.AlbumRead, id);
  if (album.ownerId === target) throw new Invalid('Cannot remove album owner');
  if (!album.sharedUserIds.includes(target)) throw new Invalid('Album not shared with user');
  requireAlbumUserRemoval(auth, album, target);
  if (!(await albumRepo.unshareAlbum(album, target, new Date().toISOString())).ok) throw albumChanged();
};
