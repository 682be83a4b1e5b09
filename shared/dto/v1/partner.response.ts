import type { Partnership } from '../../model/partner.ts';
import { mapUser, type UserResponse } from './user.response.ts';

/** Immich's PartnerResponseDto: the other user, and whether the share joins the timeline. */
export type PartnerResponseDto = UserResponse & { inTimeline: boolean };

export const mapPartner = ({ partner, user }: Partnership): PartnerResponseDto => ({
  ...mapUser(user),
  inTimeline: partner.inTimeline,
});
