/**
 * Immich v3.2's partners (`@immich/sdk` 3.2.2: PartnerCreateDto, PartnerUpdateDto,
 * PartnerDirection, PartnerResponseDto), over the same shares as v1.100's `/partner` routes.
 */
import type { Partnership } from '../../model/partner.ts';
import { boolean, object, picklist, uuid } from './common.ts';
import { mapUserV3, type UserResponseDto } from './user.response.ts';

/** GET /partners `?direction=`: required in v3 (`shared-by`: the users the caller shares with). */
export const PartnerSearchDto = object({ direction: picklist(['shared-by', 'shared-with'] as const) });

export const PartnerCreateDto = object({ sharedWithId: uuid });

export const PartnerUpdateDto = object({ inTimeline: boolean });

export type PartnerResponseDto = UserResponseDto & { inTimeline: boolean };

export const mapPartnerV3 = ({ partner, user }: Partnership): PartnerResponseDto => ({
  ...mapUserV3(user),
  inTimeline: partner.inTimeline,
});
