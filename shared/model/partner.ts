import * as v from 'valibot';
import { id, instant } from './fields.ts';
import type { UserRecord } from './user.ts';

/** A partner share: `sharedById` lets `sharedWithId` see their library (Immich's `partners` row). */
export const PartnerRecordSchema = v.object({
  sharedById: id(),
  sharedWithId: id(),
  /** Whether the partner's photos join the timeline of the user they are shared with. */
  inTimeline: v.boolean(),
  createdAt: instant(),
  updatedAt: instant(),
});
export type PartnerRecord = v.InferOutput<typeof PartnerRecordSchema>;

/** A partnership and the other user in it. */
export interface Partnership {
  partner: PartnerRecord;
  user: UserRecord;
}
