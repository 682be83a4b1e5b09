/**
 * A deleted user's library is hidden from everyone it was shared with (docs/data-model.md,
 * pattern 61): their partners see none of it (nor they their partners'), and the albums they shared
 * leave their members' lists, counts and access checks, as Immich leaves a deleted owner's shared
 * albums out; the apps' sync is told in the same writes (PartnerDeleteV1, AlbumDeleteV1). A restore
 * shows it again, and the apps get it back as backfills. Apart from user.service.ts so that only
 * deleting and restoring bundle it.
 */
import * as albumRepo from '../../db/album.repository.ts';
import * as partnerRepo from '../../db/partner.repository.ts';

export const setLibraryHidden = async (userId: string, hidden: boolean): Promise<void> => {
  await Promise.all([partnerRepo.markPartnershipsDeleted(userId, hidden), albumRepo.markOwnerDeleted(userId, hidden)]);
};
