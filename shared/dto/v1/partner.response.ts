import type { PartnerRecord } from '../../model/partner.ts';
import type { UserRecord } from '../../model/user.ts';
import { mapUser, type UserResponse } from './user.response.ts';

export type PartnerResponseDto = UserResponse & { inTimeline: boolean };

export const mapPartner = ({ partner, user }: { partner: PartnerRecord; user: UserRecord }): PartnerResponseDto => ({
  ...mapUser(user),
  inTimeline: partner.inTimeline,
});
