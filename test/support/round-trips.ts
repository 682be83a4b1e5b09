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
