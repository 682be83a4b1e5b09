/**
 * Access to users (Immich's user access): who manages them, who sees every user, who changes an
 * account, and which users a user may read when the configuration's `server.publicUsers` is off
 * (docs/immich-compatibility.md, "Users a user sees").
 */

import { Forbidden } from '../core/errors.ts';
import * as albumRepo from '../db/album.repository.ts';
import * as partnerRepo from '../db/partner.repository.ts';
import type { Auth } from '../model/user.ts';
import { isGranted } from './api-key-permission.ts';

/**
 * Whether the caller and `userId` are connected: the same user, partners either way (two
 * GetItems), or beside each other in an album, as its owner and a member or as two members (one
 * Query of each one's album shares, only when they are not partners).
 */
export const connectedTo = async (auth: Auth, userId: string): Promise<boolean> => {
  const me = auth.user.id;
  if (userId === me) return true;
  const partners = await Promise.all([partnerRepo.get(userId, me), partnerRepo.get(me, userId)]);
  if (partners.some(Boolean)) return true;
  const [mine, theirs] = await Promise.all([albumRepo.listLiveAlbumSharesOf(me), albumRepo.listLiveAlbumSharesOf(userId)]);
  const theirAlbums = new Set(theirs.map((share) => share.albumId));
  return mine.some((share) => share.ownerId === userId || theirAlbums.has(share.albumId)) || theirs.some((share) => share.ownerId === me);
};

/**
 * Whether the caller manages users (roles, storage labels, other users' accounts): the admin, and
 * through an API key only one that holds `adminUser.update` (v1.100's `PUT /user` serves both v3's
 * `PUT /users/me` and `PUT /admin/users/{id}`).
 */
export const managesUsers = (auth: Auth): boolean =>
  auth.user.isAdmin && (!auth.apiKey || isGranted(['adminUser.update'], auth.apiKey.permissions));

/** Who sees every user in GET /users (Immich v3): an admin always, a user when the configuration's `server.publicUsers` is on. */
export const seesAllUsers = (auth: Auth, publicUsers: boolean): boolean => publicUsers || auth.user.isAdmin;

/** Who may change a user's account (Immich's user update): an admin anyone's, a user only their own. */
export const requireUserUpdate = (auth: Auth, userId: string): void => {
  if (!managesUsers(auth) && auth.user.id !== userId) throw new Forbidden('You are not allowed to update this user');
};
