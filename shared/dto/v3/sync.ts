import * as v from 'valibot';
import { syncEntityTypes, syncRequestTypes } from '../../model/sync.ts';

export { type SyncEntityType, type SyncRequestType, syncEntityTypes, syncRequestTypes } from '../../model/sync.ts';

/** POST /sync/stream. */
export const SyncStreamBody = v.object({
  types: v.array(v.picklist(syncRequestTypes)),
  reset: v.optional(v.boolean()),
});

/** POST /sync/ack: each ack is `<type>|<updateId>[|<extraId>]`; its type is checked by the service (Immich's message). */
export const SyncAckSetBody = v.object({ acks: v.pipe(v.array(v.string()), v.maxLength(1000)) });

/** DELETE /sync/ack. */
export const SyncAckDeleteBody = v.object({ types: v.optional(v.array(v.picklist(syncEntityTypes))) });
