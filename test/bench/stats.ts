export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

export const table = (header: string[], rows: (string | number)[][]): string =>
  [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');

/** Replaces the text between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->` in docs/benchmarks.md (appends it when absent). */
export const replaceSection = (doc: string, name: string, body: string): string => {
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const block = `${start}\n${body.trim()}\n${end}`;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < 0) return `${doc.trimEnd()}\n\n${block}\n`;
  return doc.slice(0, from) + block + doc.slice(to + end.length);
};

/**
 * Runs `work` while the process's resident memory is sampled every 10 ms (after a GC when
 * `--expose-gc` allows one): its result, its seconds, and the RSS before and at the peak.
 */
export const withPeakRss = async <T>(work: () => Promise<T>): Promise<{ result: T; seconds: number; baseline: number; peak: number }> => {
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const started = performance.now();
  try {
    const result = await work();
    return { result, seconds: (performance.now() - started) / 1000, baseline, peak: Math.max(peak, process.memoryUsage().rss) };
  } finally {
    clearInterval(sampler);
  }
};
