import { db } from '#shared/db/client.ts';

/** Counts the DynamoDB calls `fn` makes through the shared client (a real call counter, not a mock). */
export const countRoundTrips = async (fn: () => Promise<unknown>): Promise<string[]> => {
  const calls: string[] = [];
  const name = `count-${Math.random()}`;
  db.middlewareStack.add(
    (next, context) => async (args) => {
      calls.push(String(context.commandName));
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
