/** Runs `work` on every item, at most `limit` at a time (in the items' order as they free up). */
export const inBatches = async <T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> => {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
};

/**
 * A gate that runs at most `limit` of the works handed to it at a time, the others waiting their
 * turn in the order handed: for work started from many places at once (each connection's posts of
 * a publication: shared/realtime/publisher.ts) that must share one bound.
 */
export const limiter = (limit: number) => {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      // The slot passes to the next in line, or is freed.
      if (next) next();
      else running--;
    }
  };
};
