import { Conflict, Invalid } from '../../core/errors.ts';
import { type UserRecord, UserRecordSchema } from '../../model/user.ts';
import { codec } from '../codec.ts';
import { indexKeys, keys } from '../keys.ts';
import { checkWrite, deleteWrite, putWrite, setFields, updateWrite, type Write } from '../transact.ts';

export const userCodec = codec('user', UserRecordSchema);

const userItem = (user: UserRecord) => ({ ...keys.user(user.id), ...indexKeys.users(user.createdAt, user.id), type: 'user', ...user });

/** The user is still as a credential about to be written copies them (so no credential is written from a stale read). */
const isCurrent = 'email = :email AND isAdmin = :isAdmin AND (attribute_not_exists(deletedAt) OR attribute_type(deletedAt, :null))';

/** The writes of users and of their guards, composed by the user and asset repositories. */
export const userWrites = {
  create: (user: UserRecord): Write => putWrite(userItem(user), { condition: 'absent' }),
  /** One user per email. */
  claimEmail: (email: string, userId: string): Write =>
    putWrite(
      { ...keys.email(email), type: 'emailGuard', userId },
      { condition: 'absent', onConditionFailed: () => new Invalid('User exists') },
    ),
  /** One user per storage label. */
  claimStorageLabel: (label: string, userId: string): Write =>
    putWrite(
      { ...keys.storageLabel(label), type: 'storageLabelGuard', userId },
      { condition: 'absent', onConditionFailed: () => new Invalid('Storage label already in use by another account') },
    ),
  /** The one admin: only the first sign-up may claim it. */
  claimAdmin: (userId: string): Write =>
    putWrite(
      { ...keys.admin(), type: 'adminGuard', userId },
      { condition: 'absent', onConditionFailed: () => new Invalid('The server already has an admin') },
    ),
  /** Any other user needs the admin to exist (Immich's message, typo included). */
  requireAdmin: (): Write =>
    checkWrite(keys.admin(), {
      condition: 'attribute_exists(pk)',
      onConditionFailed: () => new Invalid('The first registered account must the administrator.'),
    }),
  /**
   * Adds `bytes` (negative to free them) to the user's usage. With a quota, the quota must be the
   * one the caller read and still leave room; without one, it must still be unset.
   */
  addUsage: (userId: string, bytes: number, quota: number | null | 'unchecked', onConditionFailed?: () => Error): Write =>
    quota === 'unchecked'
      ? updateWrite(keys.user(userId), 'ADD quotaUsageInBytes :size', { condition: 'present', values: { ':size': bytes } })
      : quota === null
        ? updateWrite(keys.user(userId), 'ADD quotaUsageInBytes :size', {
            condition: 'attribute_exists(pk) AND (attribute_not_exists(quotaSizeInBytes) OR attribute_type(quotaSizeInBytes, :null))',
            values: { ':size': bytes, ':null': 'NULL' },
            ...(onConditionFailed ? { onConditionFailed } : {}),
          })
        : updateWrite(keys.user(userId), 'ADD quotaUsageInBytes :size', {
            condition: 'quotaSizeInBytes = :quota AND quotaUsageInBytes <= :maxUsage',
            values: { ':size': bytes, ':quota': quota, ':maxUsage': quota - bytes },
            ...(onConditionFailed ? { onConditionFailed } : {}),
          }),
  /**
   * Written with every new credential (session, API key, shared link): the user still has the
   * email and role it copies and is not deleted; a change meanwhile cancels it (then read again).
   */
  isCurrent: (userId: string, copy: { email: string; isAdmin: boolean }): Write =>
    checkWrite(keys.user(userId), {
      condition: isCurrent,
      values: { ':email': copy.email, ':isAdmin': copy.isAdmin, ':null': 'NULL' },
      onConditionFailed: () => new Conflict('The user was changed meanwhile; try again'),
    }),
  /** Fields of an existing user, only if it is still as read (`updatedAt`): concurrent edits cannot both land. */
  set: (user: UserRecord, fields: Partial<UserRecord>): Write => {
    const { expression, names, values } = setFields(fields);
    return updateWrite(keys.user(user.id), expression, {
      condition: '#was = :was',
      names: { ...names, '#was': 'updatedAt' },
      values: { ...values, ':was': user.updatedAt },
      onConditionFailed: () => new Conflict('The user was changed by another request; try again'),
    });
  },
  /** Moves the email guard: the new one must be free (Immich's message), the old one goes. */
  moveEmail: (userId: string, from: string, to: string): Write[] => [
    deleteWrite(keys.email(from)),
    putWrite(
      { ...keys.email(to), type: 'emailGuard', userId },
      { condition: 'absent', onConditionFailed: () => new Invalid('Email already in use by another account') },
    ),
  ],
  releaseStorageLabel: (label: string): Write => deleteWrite(keys.storageLabel(label)),
};
