import type { LiveEvent } from '../model/realtime.ts';

// A plain lookup of the builtin, as shared/core/log.ts does (an ESM import costs the module loader).
const { AsyncLocalStorage } = process.getBuiltinModule('node:async_hooks');

/**
 * The events an operation raises (shared/model/realtime.ts), kept per request until it has
 * succeeded: the handler factory (shared/http/pipeline.ts) and the media function's entry then
 * hand them to the publisher (shared/realtime/publisher.ts). An AsyncLocalStorage, not a module
 * variable: the local server serves concurrent requests in one process, and an event must never
 * leave with another request's answer, nor with a failed one's. The only module of shared/realtime
 * a service may import (test/unit/architecture.test.ts).
 */
const outbox = new AsyncLocalStorage<LiveEvent[]>();

/** Raises an event for the apps; outside an operation that collects them (a script, a unit test) it goes nowhere. */
export const raise = (event: LiveEvent): void => {
  outbox.getStore()?.push(event);
};

/** Runs `fn` with an outbox of its own; its result and the events it raised, in order. */
export const collectEvents = async <T>(fn: () => Promise<T>): Promise<{ result: T; events: LiveEvent[] }> => {
  const events: LiveEvent[] = [];
  const result = await outbox.run(events, fn);
  return { result, events };
};
