/**
 * An upload through a shared link that allows uploads lands where the link shows it, as Immich v3's
 * `addToSharedLink`: in the link's album, or among an individual link's assets
 * (docs/immich-compatibility.md, "Shared links").
 */
import { uploadLinkOf } from '../../access/upload-access.ts';
import { Inaccessible } from '../../core/errors.ts';
import * as sharedLinkRepo from '../../db/shared-link.repository.ts';
import type { Auth } from '../../model/user.ts';
import { addAssetsToAlbum } from '../album/album.service.ts';

/** Adds the uploaded (or duplicate) asset to the caller's link; nothing for a signed-in user. An album gone meanwhile is left, as Immich leaves it. */
export const addToSharedLink = async (auth: Auth, assetId: string): Promise<void> => {
  const link = await uploadLinkOf(auth);
  if (!link) return;
  if (link.albumId === null) {
    // Already among the link's assets (a duplicate sent again) is fine.
    await sharedLinkRepo.addAssets(link.id, [assetId]);
    return;
  }
  try {
    await addAssetsToAlbum(auth, link.albumId, [assetId]);
  } catch (error) {
    if (!(error instanceof Inaccessible)) throw error;
  }
};
