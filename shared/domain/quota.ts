/**
 * What an upload is checked against: the user's quota, their usage, and what their open upload
 * sessions hold of it (docs/large-uploads.md). A session's declared size counts from the moment
 * it opens, so parts waiting in the store never exceed the quota.
 */
import type { QuotaCheck, UserRecord } from '../model/user.ts';

/** The user's upload sessions that have not expired, by id. */
export const liveHolds = (user: Pick<UserRecord, 'uploadSessions'>, now = Date.now()): [string, { bytes: number }][] =>
  Object.entries(user.uploadSessions).filter(([, hold]) => Date.parse(hold.expiresAt) > now);

/** The ids of the user's holds that expired (the next session opened removes them). */
export const expiredHolds = (user: Pick<UserRecord, 'uploadSessions'>, now = Date.now()): string[] =>
  Object.entries(user.uploadSessions)
    .filter(([, hold]) => Date.parse(hold.expiresAt) <= now)
    .map(([id]) => id);

/** The quota check of a user as read; `except` is the session whose own file is being recorded. */
export const quotaCheckOf = (user: UserRecord, except?: string, now = Date.now()): QuotaCheck => ({
  quota: user.quotaSizeInBytes,
  held: liveHolds(user, now)
    .filter(([id]) => id !== except)
    .reduce((sum, [, hold]) => sum + hold.bytes, 0),
  opened: user.uploadSessionsOpened,
});

/** Whether `bytes` more fit the user's quota, beside their usage and their sessions' holds. */
export const fitsQuota = (user: UserRecord, check: QuotaCheck, bytes: number): boolean =>
  check.quota === null || user.quotaUsageInBytes + check.held + bytes <= check.quota;

/** No quota: any size fits. */
export const noQuota: QuotaCheck = { quota: null, held: 0, opened: 0 };
