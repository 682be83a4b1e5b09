import { createRequire } from 'node:module';

// Immich's default schedules (v1.100's and v3.2's), which `cron` accepts: they need no parser.
const defaultSchedules = new Set(['0 0 * * *', '0 02 * * *', '0 03 * * *']);
// croner (33 KB) is read from beside the bundle when an expression needs it (the `cron` group of
// lazyModules, infra/cdk/bundling.ts): most updates send the schedules back unchanged.
let cronParser: typeof import('croner').Cron | undefined;
const parser = () => (cronParser ??= (createRequire(import.meta.url)('croner') as typeof import('croner')).Cron);

/**
 * Immich checks cron expressions with the `cron` package (5 or 6 fields, or an `@daily`-style
 * alias). croner (no dependencies; `cron` brings luxon, ~80 KB more in this bundle) parses the
 * same syntax and also Quartz extensions (`L`, `W`, `#`, `?`, a 7th year field) that `cron`
 * rejects, so those are refused first. test/unit/cron.test.ts pins the agreement.
 */
export const isCron = (expression: unknown): boolean => {
  if (typeof expression !== 'string') return false;
  const trimmed = expression.trim();
  const fields = trimmed.split(/\s+/).length;
  if (!trimmed.startsWith('@') && (fields < 5 || fields > 6 || /[LW#?]/i.test(trimmed))) return false;
  if (defaultSchedules.has(trimmed)) return true;
  const Cron = parser();
  try {
    new Cron(trimmed, { paused: true });
    return true;
  } catch {
    return false;
  }
};
