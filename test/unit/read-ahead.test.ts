import { describe, expect, it } from 'vitest';
import { readAhead } from '#shared/core/read-ahead.ts';

/** Sources of pages that count what is read and not yet taken (the map's ranges: shared/core/read-ahead.ts). */
const counted = (sizes: readonly number[]) => {
  const state = { held: 0, most: 0, running: 0, mostRunning: 0 };
  const sources = sizes.map(
    (size, source) =>
      async function* () {
        state.running++;
        state.mostRunning = Math.max(state.mostRunning, state.running);
        try {
          for (let page = 0; page < size; page++) {
            await new Promise((resolve) => setTimeout(resolve, (source * 7 + page * 3) % 5));
            state.held++;
            state.most = Math.max(state.most, state.held);
            yield `${source}:${page}`;
          }
        } finally {
          state.running--;
        }
      },
  );
  return { state, sources };
};

describe('readAhead', () => {
  it('gives every source’s values in order, reading several at once, never holding more than concurrency × ahead', async () => {
    const sizes = [5, 0, 12, 3, 9, 1, 7, 20, 4];
    const { state, sources } = counted(sizes);
    const seen: string[] = [];
    for await (const value of readAhead(sources, { concurrency: 3, ahead: 2 })) {
      state.held--;
      seen.push(value);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(seen).toEqual(sizes.flatMap((size, source) => Array.from({ length: size }, (_, page) => `${source}:${page}`)));
    expect(state.mostRunning).toBe(3);
    // Each running source holds at most `ahead` values, and one more in the hand of the consumer's turn.
    expect(state.most).toBeLessThanOrEqual(3 * 2 + 1);
    expect(state.running).toBe(0);
  });

  it('fails with a source’s failure, and stops the others when the consumer stops', async () => {
    const failing = [
      async function* () {
        yield 'a';
      },
      async function* () {
        yield 'b';
        throw new Error('read failed');
      },
    ];
    const seen: string[] = [];
    await expect(async () => {
      for await (const value of readAhead(failing, { concurrency: 2, ahead: 1 })) seen.push(value);
    }).rejects.toThrow('read failed');
    expect(seen).toEqual(['a', 'b']);

    const { state, sources } = counted([50, 50, 50]);
    for await (const value of readAhead(sources, { concurrency: 3, ahead: 2 })) if (value === '0:3') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(state.running).toBe(0);
  });
});
