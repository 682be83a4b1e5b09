/**
 * Ordered reads run ahead in parallel, in bounded memory (the map's markers: docs/places.md,
 * "The map"). Sources are consumed one after the other, in the order given, while up to
 * `concurrency` of them (the one consumed and those next) are read at once, each holding at most
 * `ahead` of its values (pages) until they are taken: what is held never exceeds
 * `concurrency × ahead` values, however many the sources yield.
 */

interface Lane<T> {
  values: T[];
  done: boolean;
  failed: { error: unknown } | undefined;
  /** Wakes the consumer waiting for this lane's next value. */
  wake: (() => void) | undefined;
  /** Wakes the producer waiting for room. */
  room: (() => void) | undefined;
}

const signal = (lane: Lane<unknown>, which: 'wake' | 'room'): void => {
  const resolve = lane[which];
  lane[which] = undefined;
  resolve?.();
};

/** The values of every source, source by source in the order given, read `concurrency` sources at a time. */
export async function* readAhead<T>(
  sources: readonly (() => AsyncIterable<T>)[],
  options: { concurrency: number; ahead: number },
): AsyncGenerator<T, void, void> {
  const concurrency = Math.max(1, options.concurrency);
  const ahead = Math.max(1, options.ahead);
  const lanes: Lane<T>[] = [];
  let stopped = false;

  const start = (index: number): void => {
    const source = sources[index];
    if (!source || lanes[index]) return;
    const lane: Lane<T> = { values: [], done: false, failed: undefined, wake: undefined, room: undefined };
    lanes[index] = lane;
    void (async () => {
      try {
        for await (const value of source()) {
          lane.values.push(value);
          signal(lane, 'wake');
          while (lane.values.length >= ahead && !stopped) await new Promise<void>((resolve) => (lane.room = resolve));
          if (stopped) break;
        }
      } catch (error) {
        lane.failed = { error };
      } finally {
        lane.done = true;
        signal(lane, 'wake');
      }
    })();
  };

  try {
    for (let index = 0; index < sources.length; index++) {
      for (let next = index; next < Math.min(sources.length, index + concurrency); next++) start(next);
      const lane = lanes[index] as Lane<T>;
      for (;;) {
        const value = lane.values.shift();
        if (value !== undefined) {
          signal(lane, 'room');
          yield value;
          continue;
        }
        if (lane.failed) throw lane.failed.error;
        if (lane.done) break;
        await new Promise<void>((resolve) => (lane.wake = resolve));
      }
      // Taken: its values go with it.
      lanes[index] = { values: [], done: true, failed: undefined, wake: undefined, room: undefined };
    }
  } finally {
    // Stopped early (the client went, a read failed): the producers still running stop at their next value.
    stopped = true;
    for (const lane of lanes) if (lane) signal(lane, 'room');
  }
}
