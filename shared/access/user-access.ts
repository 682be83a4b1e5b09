/**
 * Which users a user may read when the configuration's `server.publicUsers` is off
 * (docs/immich-compatibility.md, "Users a user sees"): kept apart from access.ts so that only the
 * user routes bundle the partner and album reads it makes.
 */
import { listLiveAlbumSharesOf } from '../db/album.repository.ts';
import { getPartner } from '../db/partner.repository.ts';
import type { Auth } from '../model/user.ts';

/**
 * Whether the caller and `userId` are connected: the same user, partners either way (two
 * GetItems), or beside each other in an album, as its owner and a member or as two members (one
 * Query of each one's album shares, only when they are not partners).
 */
export const connectedTo = async (auth: Auth, userId: string): Promise<boolean> => {
  const me = auth.user.id;
  if (userId === me) return true;
  const partners = await Promise.all([getPartner(userId, me), getPartner(me, userId)]);
  if (partners.some(Boolean)) return true;
  const [mine, theirs] = await Promise.all([listLiveAlbumSharesOf(me), listLiveAlbumSharesOf(userId)]);
  const theirAlbums = new Set(theirs.map((share) => share.albumId));
  return mine.some((share) => share.ownerId === userId || theirAlbums.has(share.albumId)) || theirs.some((share) => share.ownerId === me);
};
