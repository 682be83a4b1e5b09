import type { QuotaCheck, UsageChange, UserRecord } from '../../model/user.ts';
import * as keys from '../item-keys.ts';
import { checkWrite, deleteWrite, putWrite, setFields, updateWrite, type Write } from '../transact.ts';
import { currentUserCondition, openedAsRead, quotaRoom, userItem } from './user.ts';

/** The writes of users and of their guards, composed by the user and asset repositories. */
// A new user's items all get change ids as they are written: their library needs no indexing (shared/db/sync.repository.ts).
// A new user's items are written in today's shapes: nothing to index later (their change ids, their faces' ids, their trash's entries, their counters' lens facets).
export const create = (user: UserRecord): Write =>
  putWrite(
    { ...userItem(user), changesIndexed: true, facesIndexed: true, trashIndexed: true, lensesIndexed: true },
    { condition: 'absent' },
  );
/** One user per email. */
export const claimEmail = (email: string, userId: string): Write<'user-exists'> =>
  putWrite({ ...keys.email(email), type: 'emailGuard', userId }, { condition: 'absent', refusal: 'user-exists' });
/** One user per OAuth account (its `sub`). */
export const claimOAuth = (oauthId: string, userId: string): Write<'oauth-taken'> =>
  putWrite({ ...keys.oauth(oauthId), type: 'oauthGuard', userId }, { condition: 'absent', refusal: 'oauth-taken' });
export const releaseOAuth = (oauthId: string): Write => deleteWrite(keys.oauth(oauthId));
/** One user per storage label. */
export const claimStorageLabel = (label: string, userId: string): Write<'label-taken'> =>
  putWrite({ ...keys.storageLabel(label), type: 'storageLabelGuard', userId }, { condition: 'absent', refusal: 'label-taken' });
/** The one admin: only the first sign-up may claim it. */
export const claimAdmin = (userId: string): Write<'admin-exists'> =>
  putWrite({ ...keys.admin(), type: 'adminGuard', userId }, { condition: 'absent', refusal: 'admin-exists' });
/** Any other user needs the admin to exist (Immich's message, typo included). */
export const requireAdmin = (): Write<'no-admin'> => checkWrite(keys.admin(), { condition: 'attribute_exists(pk)', refusal: 'no-admin' });
/** Adds `bytes` (negative to free them: a deletion) to the user's usage, unchecked. */
export const freeUsage = (userId: string, usage: UsageChange): Write =>
  updateWrite(keys.user(userId), 'ADD quotaUsageInBytes :size, usagePhotos :photos, usageVideos :videos', {
    condition: 'present',
    values: { ':size': usage.bytes, ':photos': usage.photos, ':videos': usage.videos },
  });
/**
 * Adds `bytes` (negative to free them) to the user's usage. With a quota, the quota must be the
 * one the caller read and still leave room beside the upload sessions' holds it read, and no
 * session may have opened since (docs/large-uploads.md); without one, it must still be unset.
 * `release` ends an upload session's hold in the same write (its file is what is added).
 */
export const addUsage = (userId: string, usage: UsageChange, check: QuotaCheck, release?: string): Write<'quota'> => {
  // The photos' and videos' shares move with the total (counted from zero on a user stored before them).
  const expression = `ADD quotaUsageInBytes :size, usagePhotos :photos, usageVideos :videos${release ? ' REMOVE uploadSessions.#release' : ''}`;
  const names = release ? { names: { '#release': release } } : {};
  const byType = { ':size': usage.bytes, ':photos': usage.photos, ':videos': usage.videos };
  const room = quotaRoom(check, usage.bytes);
  // With a quota, the holds read must still be all there are: no session opened since.
  return updateWrite(keys.user(userId), expression, {
    condition: check.quota === null ? `attribute_exists(pk) AND ${room.condition}` : `${room.condition} AND ${openedAsRead(check)}`,
    values: { ...byType, ...room.values, ...(check.quota === null ? {} : { ':opened': check.opened }) },
    ...names,
    refusal: 'quota',
  });
};
/**
 * A user stored before usage by type was kept, counted once (their assets' sizes summed): set
 * only while their usage is still what it was when counting began, so no upload or deletion
 * meanwhile is lost.
 */
export const countUsageByType = (userId: string, usageAsRead: number, photos: number, videos: number): Write =>
  updateWrite(keys.user(userId), 'SET usagePhotos = :photos, usageVideos = :videos, usageByType = :true', {
    condition: 'quotaUsageInBytes = :usage',
    values: { ':photos': photos, ':videos': videos, ':true': true, ':usage': usageAsRead },
  });
/** The map of upload sessions' holds, on a user stored before it existed (a no-op on any other). */
export const holdsMap = (userId: string): Write =>
  updateWrite(keys.user(userId), 'SET uploadSessions = if_not_exists(uploadSessions, :empty)', {
    condition: 'present',
    values: { ':empty': {} },
  });
/**
 * An upload session opens: it holds `bytes` of the quota until `expiresAt`; holds that expired
 * go. Only if the user is as read (no session opened since, the same quota, room left) and not
 * deleted: a concurrent session or upload cancels it, to be read again.
 */
export const openSession = (
  userId: string,
  check: QuotaCheck,
  session: { id: string; bytes: number; expiresAt: string },
  expired: readonly string[],
): Write<'owner-changed'> => {
  const removed = expired.map((_, index) => `uploadSessions.#expired${index}`);
  const room = quotaRoom(check, session.bytes);
  return updateWrite(
    keys.user(userId),
    `SET uploadSessions.#session = :hold ADD uploadSessionsOpened :one${removed.length > 0 ? ` REMOVE ${removed.join(', ')}` : ''}`,
    {
      // No session opened since, with a quota or without (the number of open sessions is checked).
      condition: `attribute_exists(uploadSessions) AND ${openedAsRead(check)} AND ${room.condition} AND (attribute_not_exists(deletedAt) OR attribute_type(deletedAt, :null))`,
      names: { '#session': session.id, ...Object.fromEntries(expired.map((id, index) => [`#expired${index}`, id])) },
      values: {
        ':hold': { bytes: session.bytes, expiresAt: session.expiresAt },
        ':one': 1,
        ':null': 'NULL',
        ':opened': check.opened,
        ...room.values,
      },
      refusal: 'owner-changed',
    },
  );
};
/** An upload session ended without a file (deleted, expired, refused): its hold goes. */
export const closeSession = (userId: string, sessionId: string): Write =>
  updateWrite(keys.user(userId), 'REMOVE uploadSessions.#session', {
    condition: 'attribute_exists(uploadSessions)',
    names: { '#session': sessionId },
  });
/**
 * Written with every new credential (session, API key, shared link): the user still has the
 * email and role it copies and is not deleted; a change meanwhile cancels it (then read again).
 */
export const isCurrent = (userId: string, copy: { email: string; isAdmin: boolean }): Write<'user-changed'> =>
  checkWrite(keys.user(userId), {
    condition: currentUserCondition,
    values: { ':email': copy.email, ':isAdmin': copy.isAdmin, ':null': 'NULL' },
    refusal: 'user-changed',
  });
/** Fields of an existing user, only if it is still as read (`updatedAt`): concurrent edits cannot both land. */
export const set = (user: UserRecord, fields: Partial<UserRecord>): Write<'changed'> => {
  const { expression, names, values } = setFields(fields);
  return updateWrite(keys.user(user.id), expression, {
    condition: '#was = :was',
    names: { ...names, '#was': 'updatedAt' },
    values: { ...values, ':was': user.updatedAt },
    refusal: 'changed',
  });
};
/** Moves the email guard: the new one must be free (Immich's message), the old one goes. */
export const moveEmail = (userId: string, from: string, to: string): Write<'email-taken'>[] => [
  deleteWrite(keys.email(from)),
  putWrite({ ...keys.email(to), type: 'emailGuard', userId }, { condition: 'absent', refusal: 'email-taken' }),
];
export const releaseStorageLabel = (label: string): Write => deleteWrite(keys.storageLabel(label));
