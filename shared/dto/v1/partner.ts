import * as v from 'valibot';
import type { PartnerRecord } from '../../model/partner.ts';
import type { UserRecord } from '../../model/user.ts';
import { as, dto, rules } from '../common.ts';
import { mapUser, type UserResponse } from './user.ts';

/** GET /partner `?direction=` (read raw by Immich: `shared-by`, else shared with the caller). */
export const PartnerDirectionQuery = dto({ direction: v.optional(v.string()) });

/** `UpdatePartnerDto`: `@IsNotEmpty() inTimeline` (a boolean in practice; a truthy value counts). */
export const UpdatePartnerDto = dto({
  inTimeline: v.pipe(
    v.unknown(),
    rules.isNotEmpty,
    v.transform((x: unknown) => x === true || x === 'true'),
    as<boolean>(),
  ),
});

/** Immich's PartnerResponseDto: the other user, and whether the share joins the timeline. */
export type PartnerResponseDto = UserResponse & { inTimeline: boolean };

export const mapPartner = ({ partner, user }: { partner: PartnerRecord; user: UserRecord }): PartnerResponseDto => ({
  ...mapUser(user),
  inTimeline: partner.inTimeline,
});
