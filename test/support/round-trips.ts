import { db } from '#shared/db/client.ts';

/** One DynamoDB call: its command's name and input (the key of a GetItem, a Query's key condition and values). */
export interface RoundTrip {
  command: string;
  input: Record<string, any>;
}

/** The DynamoDB calls `fn` makes through the shared client, each with its input (a real call recorder, not a mock). */
export const recordRoundTrips = async (fn: () => Promise<unknown>): Promise<RoundTrip[]> => {
  const calls: RoundTrip[] = [];
  const name = `record-${Math.random()}`;
  db.middlewareStack.add(
    (next, context) => async (args) => {
      calls.push({ command: String(context.commandName), input: args.input as Record<string, any> });
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    await fn();
  } finally {
    db.middlewareStack.remove(name);
  }
  return calls;
};

/** The names of the DynamoDB calls `fn` makes through the shared client, in order. */
export const countRoundTrips = async (fn: () => Promise<unknown>): Promise<string[]> =>
  (await recordRoundTrips(fn)).map((call) => call.command);

/**
 * The longest chain of DynamoDB calls `fn` makes one after another (each sent only once the one
 * before it had answered): the round trips of latency it costs, whatever runs alongside. Calls are
 * ordered by the events seen (a send, an answer), never by a clock.
 */
export const sequentialRoundTrips = async (fn: () => Promise<unknown>): Promise<{ calls: number; sequential: number }> => {
  const spans: { start: number; end: number }[] = [];
  let event = 0;
  const name = `sequence-${Math.random()}`;
  db.middlewareStack.add(
    (next) => async (args) => {
      const span = { start: event++, end: Number.POSITIVE_INFINITY };
      spans.push(span);
      try {
        return await next(args);
      } finally {
        span.end = event++;
      }
    },
    { step: 'initialize', name },
  );
  try {
    await fn();
  } finally {
    db.middlewareStack.remove(name);
  }
  // Spans are in order of their start: a call's chain is one more than the longest of those that ended before it began.
  const depth: number[] = [];
  spans.forEach((span, index) => {
    let longest = 0;
    for (let before = 0; before < index; before++)
      if ((spans[before]?.end ?? Number.POSITIVE_INFINITY) < span.start) longest = Math.max(longest, depth[before] ?? 0);
    depth.push(longest + 1);
  });
  return { calls: spans.length, sequential: Math.max(0, ...depth) };
};

/**
 * Runs `fn` as if its invocation were cut short (a Lambda timing out) after `allowed` DynamoDB
 * calls: every later call fails before it is sent, and what was written before stays written.
 * `cut`: whether any call was refused; `result`: what `fn` answered (a handler answers 500).
 */
export const cutAfter = async <T>(allowed: number, fn: () => Promise<T>): Promise<{ cut: boolean; result: T | Error }> => {
  let sent = 0;
  const name = `cut-${Math.random()}`;
  db.middlewareStack.add(
    (next) => async (args) => {
      if (sent++ >= allowed) throw new Error('cut short (test)');
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    const result = await fn().catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    return { cut: sent > allowed, result };
  } finally {
    db.middlewareStack.remove(name);
  }
};
