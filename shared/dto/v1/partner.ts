import * as v from 'valibot';
import { as, dto, rules } from '../common.ts';

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
