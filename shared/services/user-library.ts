/**
 * A deleted user's library is hidden from everyone it was shared with (docs/data-model.md,
 * "Deleted users"): their partners see none of it, and the albums they shared leave their members'
 * lists, counts and access checks, as Immich leaves a deleted owner's shared albums out. A
 * restore shows it again. Apart from user.service.ts so that only deleting and restoring bundle it.
 */
import { markAlbumOwnerDeleted } from '../db/album.repository.ts';
import { markSharerDeleted } from '../db/partner.repository.ts';

export const setLibraryHidden = async (userId: string, hidden: boolean): Promise<void> => {
  await Promise.all([markSharerDeleted(userId, hidden), markAlbumOwnerDeleted(userId, hidden)]);
};
