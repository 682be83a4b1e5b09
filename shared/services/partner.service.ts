import { requirePartner } from '../access/partner-access.ts';
import { accessLost, Permission } from '../access/permission.ts';
import { Invalid } from '../core/errors.ts';
import * as partnerRepo from '../db/partner.repository.ts';
import * as userRepo from '../db/user.repository.ts';
import type { PartnerRecord, Partnership } from '../model/partner.ts';
import type { Auth } from '../model/user.ts';

/**
 * GET /partner?direction=: `shared-by` the users the caller shares with, anything else (Immich
 * reads the value raw) the users who share with the caller; deleted users left out.
 */
export const getPartners = async (auth: Auth, direction: string | undefined): Promise<Partnership[]> => {
  const sharedBy = direction === 'shared-by';
  const partners = sharedBy ? await partnerRepo.listSharedBy(auth.user.id) : await partnerRepo.listSharingWith(auth.user.id);
  const users = new Map(
    (await userRepo.getMany(partners.map((p) => (sharedBy ? p.sharedWithId : p.sharedById)))).map((user) => [user.id, user]),
  );
  return partners.flatMap((partner) => {
    const user = users.get(sharedBy ? partner.sharedWithId : partner.sharedById);
    return user && user.deletedAt === null ? [{ partner, user }] : [];
  });
};

/** POST /partner/:id: the caller shares their library with that user (`inTimeline` false until they choose). */
export const createPartner = async (auth: Auth, sharedWithId: string): Promise<Partnership> => {
  if (sharedWithId === auth.user.id) throw new Invalid('Cannot share with yourself');
  const user = await userRepo.get(sharedWithId);
  if (!user || user.deletedAt !== null) throw new Invalid('User not found');
  const now = new Date().toISOString();
  const partner: PartnerRecord = { sharedById: auth.user.id, sharedWithId, inTimeline: false, createdAt: now, updatedAt: now };
  if (!(await partnerRepo.create(partner)).ok) throw new Invalid('Partner already exists');
  return { partner, user };
};

/** DELETE /partner/:id: the caller stops sharing with that user. */
export const removePartner = async (auth: Auth, sharedWithId: string): Promise<void> => {
  if (!(await partnerRepo.remove(auth.user.id, sharedWithId)).ok) throw new Invalid('Partner not found');
};

/** PUT /partner/:id: the caller (shared with) chooses whether that partner's photos join their timeline. */
export const updatePartner = async (auth: Auth, sharedById: string, inTimeline: boolean): Promise<Partnership> => {
  const partner = await requirePartner(auth, sharedById);
  const [updated, user] = await Promise.all([
    partnerRepo.setInTimeline(partner, inTimeline, new Date().toISOString()),
    userRepo.get(sharedById),
  ]);
  if (!updated.ok || !user) throw accessLost(Permission.PartnerUpdate);
  return { partner: updated.value, user };
};

/** The users whose photos join the caller's timeline (their partners, `inTimeline`). */
export const timelinePartners = async (auth: Auth): Promise<string[]> =>
  (await partnerRepo.listSharingWith(auth.user.id)).filter((partner) => partner.inTimeline).map((partner) => partner.sharedById);
