import { db } from '#shared/db/client.ts';

type TransactItem = Record<string, { Key?: Record<string, unknown>; Item?: Record<string, unknown> } | undefined>;

/**
 * Holds the first TransactWriteItems of the shared DynamoDB client that `matches` until released:
 * before it is sent, or with `after`, once it was written and before its answer returns (the
 * request that made it pauses there), so a test can run another request in between.
 */
export const holdTransaction = (matches: (items: readonly TransactItem[]) => boolean, options: { after?: boolean } = {}) => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let reached!: () => void;
  const held = new Promise<void>((resolve) => {
    reached = resolve;
  });
  let done = false;
  const name = `hold-${Math.random()}`;
  db.middlewareStack.add(
    (next) => async (args) => {
      const items = (args as { input: { TransactItems?: TransactItem[] } }).input.TransactItems;
      if (done || !items || !matches(items)) return next(args);
      done = true;
      if (!options.after) {
        reached();
        await released;
        return next(args);
      }
      const result = await next(args);
      reached();
      await released;
      return result;
    },
    { step: 'initialize', name },
  );
  return {
    held,
    release: () => {
      release();
      db.middlewareStack.remove(name);
    },
  };
};
