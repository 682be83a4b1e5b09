/** Immich v3.2's session requests (`@immich/sdk` 3.2.2: SessionCreateDto). */
import * as v from 'valibot';
import { limits } from '../../model/limits.ts';
import { boolean, integer, object, text } from './common.ts';

/** POST /sessions: how long (seconds, at least 1; a session's lifetime if absent), and its device. */
export const SessionCreateDto = object({
  duration: v.optional(integer(1, 400 * 86_400)),
  deviceType: v.optional(text(limits.name)),
  deviceOS: v.optional(text(limits.name)),
});

/** PUT /sessions/:id. */
export const SessionUpdateDto = object({ isPendingSyncReset: v.optional(boolean) });
