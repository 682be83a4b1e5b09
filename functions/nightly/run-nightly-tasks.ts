/**
 * The nightly tasks' function: not an API route. Deployed, an EventBridge schedule invokes it
 * every hour (infra/cdk/nightly-function.ts); locally the server does. Its event's `time` is the
 * tick's instant (a scheduled event carries it), so a run is about the time it was due, also
 * when Lambda retries it later (shared/services/nightly-tasks.service.ts).
 */
import { withLogContext } from '#shared/core/log.ts';
import { collectEvents } from '#shared/realtime/outbox.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { type NightlyOutcome, runNightlyTasks } from '#shared/services/nightly-tasks.service.ts';

/** What the function reads of an EventBridge scheduled event. */
export interface ScheduledEvent {
  time?: string;
}

/** What it reads of Lambda's context: how long the invocation may still run. */
export interface NightlyContext {
  getRemainingTimeInMillis?: () => number;
}

// No deletion starts in the invocation's last three minutes: one under way (a photo, a video's
// files) then ends well within Lambda's limit, and the next tick goes on from there.
const marginMs = 3 * 60_000;

export const handler = async (event: ScheduledEvent, context?: NightlyContext): Promise<NightlyOutcome> =>
  withLogContext({}, async () => {
    const time = event.time ? new Date(event.time) : new Date();
    const remaining = context?.getRemainingTimeInMillis?.();
    // What the clean-ups deleted is told to the apps concerned once the run is done (on_asset_delete,
    // on_user_delete: docs/immich-compatibility.md, "Realtime"), as the API's routes do after theirs.
    const { result, events } = await collectEvents(() =>
      runNightlyTasks(Number.isNaN(time.getTime()) ? new Date() : time, {
        ...(remaining === undefined ? {} : { deadline: Date.now() + remaining - marginMs }),
      }),
    );
    await publish(events);
    return result;
  });
