import { describe, expect, it } from 'vitest';
import { expiredHolds, fitsQuota, liveHolds, noQuota, quotaCheckOf } from '#shared/domain/quota.ts';
import { userRecord } from '../support/records.ts';

/**
 * What an upload is checked against (docs/large-uploads.md), the rule alone: the quota, the usage,
 * and what open upload sessions hold of it until they end or expire. The handler tests
 * (test/functions/upload-session.test.ts, storage-usage.test.ts) prove the uploads ask it.
 */

const now = Date.parse('2025-06-01T12:00:00.000Z');
const later = '2025-06-02T00:00:00.000Z';
const earlier = '2025-06-01T00:00:00.000Z';
const user = userRecord({
  quotaSizeInBytes: 1000,
  quotaUsageInBytes: 600,
  uploadSessionsOpened: 3,
  uploadSessions: {
    open: { bytes: 100, expiresAt: later },
    other: { bytes: 50, expiresAt: later },
    gone: { bytes: 999, expiresAt: earlier },
  },
});

describe('upload sessions’ holds', () => {
  it('count while they have not expired; an expired one is for the next session to remove', () => {
    expect(liveHolds(user, now).map(([id]) => id)).toEqual(['open', 'other']);
    expect(expiredHolds(user, now)).toEqual(['gone']);
    // One expiring at this very moment has expired.
    expect(expiredHolds(userRecord({ uploadSessions: { edge: { bytes: 1, expiresAt: new Date(now).toISOString() } } }), now)).toEqual([
      'edge',
    ]);
  });
});

describe('quotaCheckOf and fitsQuota', () => {
  it('hold the live sessions against the quota, but the one being completed', () => {
    expect(quotaCheckOf(user, undefined, now)).toEqual({ quota: 1000, held: 150, opened: 3 });
    expect(quotaCheckOf(user, 'open', now)).toEqual({ quota: 1000, held: 50, opened: 3 });
  });

  it('let bytes in up to the quota exactly, beside the usage and the holds', () => {
    const check = quotaCheckOf(user, undefined, now);
    expect(fitsQuota(user, check, 250)).toBe(true);
    expect(fitsQuota(user, check, 251)).toBe(false);
    expect(fitsQuota(user, quotaCheckOf(user, 'open', now), 350)).toBe(true);
  });

  it('let anything in without a quota', () => {
    const unlimited = userRecord({ quotaSizeInBytes: null, quotaUsageInBytes: 10 ** 15 });
    expect(fitsQuota(unlimited, quotaCheckOf(unlimited, undefined, now), 10 ** 15)).toBe(true);
    expect(fitsQuota(user, noQuota, 10 ** 15)).toBe(true);
  });
});
