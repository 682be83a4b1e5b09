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
