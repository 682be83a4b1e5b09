import { describe, expect, it } from 'vitest';
import { isCron } from '#shared/core/cron.ts';

// What Immich v1.100's `cron` package (3.1.6) accepts and rejects, its own cases and more.
describe('cron expressions, as Immich checks them', () => {
  it.each(['0 0 * * *', '@daily', '@weekly', '* * * * * *', '*/5 * * * *', '1-5 * * * *', '0 0 31 2 *', '0 0 * * 7', '0 0 * JAN MON'])(
    'accepts %s',
    (expression) => {
      expect(isCron(expression)).toBe(true);
    },
  );

  it.each(['foo', '* * * *', '60 * * * *', '', '0 24 * * *', '0 0 * * 8', '0 0 L * *', '0 0 * * 1#2', '0 0 0 * * * 2024', '0 0 ? * *'])(
    'rejects %j',
    (expression) => {
      expect(isCron(expression)).toBe(false);
    },
  );

  it('rejects non-strings', () => {
    expect(isCron(5)).toBe(false);
    expect(isCron(null)).toBe(false);
  });
});
