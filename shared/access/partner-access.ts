/** Access to partners: who shares their library with the caller (Immich's partner access). */
import * as partnerRepo from '../db/partner.repository.ts';
import type { PartnerRecord } from '../model/partner.ts';
import type { Auth } from '../model/user.ts';
import { noAccess, Permission } from './permission.ts';

/** Whether `ownerId` shares their library with the caller (Immich's partner access). */
export const isPartnerOf = async (auth: Auth, ownerId: string): Promise<boolean> =>
  (await partnerRepo.get(ownerId, auth.user.id)) !== undefined;

/** The partnership in which `sharedById` shares with the caller (Immich's partner.update). */
export const requirePartner = async (auth: Auth, sharedById: string): Promise<PartnerRecord> => {
  const partner = await partnerRepo.get(sharedById, auth.user.id);
  if (!partner) throw noAccess(Permission.PartnerUpdate);
  return partner;
};
