/** Access to shared links: the caller's own, and the one a visitor came with (Immich's shared-link access). */
import { Forbidden, Inaccessible, Unauthenticated } from '../core/errors.ts';
import * as sharedLinkRepo from '../db/shared-link.repository.ts';
import type { SharedLinkRecord } from '../model/shared-link.ts';
import type { Auth } from '../model/user.ts';
import { noAccess, Permission } from './permission.ts';

/** One of the caller's own shared links (Immich's shared-link service answers `Shared link not found`). */
export const requireSharedLink = async (auth: Auth, linkId: string): Promise<SharedLinkRecord> => {
  const link = await sharedLinkRepo.get(auth.user.id, linkId);
  if (!link) throw new Inaccessible('Shared link not found');
  return link;
};

/**
 * The link a visitor came with (Immich's `@SharedLinkRoute()` services): a signed-in user without
 * a key has none (403); a link deleted since the key was checked is an invalid key (401).
 */
export const requireVisit = async (auth: Auth): Promise<SharedLinkRecord> => {
  if (!auth.sharedLink) throw new Forbidden();
  const link = await sharedLinkRepo.get(auth.user.id, auth.sharedLink.id);
  if (!link) throw new Unauthenticated('Invalid share key');
  return link;
};

/** A visitor reads the album of their link and nothing else (Immich's album.read for links). */
export const requireVisitorAlbum = async (auth: Auth, albumId: string): Promise<SharedLinkRecord> => {
  const link = auth.sharedLink ? await sharedLinkRepo.get(auth.user.id, auth.sharedLink.id) : undefined;
  if (!link || link.albumId !== albumId) throw noAccess(Permission.AlbumRead);
  return link;
};
