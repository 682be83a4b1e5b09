import { type QuotaCheck, type UserRecord, UserRecordSchema } from '../../model/user.ts';
import { codec } from '../codec.ts';
import * as indexKeys from '../index-keys.ts';
import * as keys from '../item-keys.ts';

export const userCodec = codec('user', UserRecordSchema);

export const userItem = (user: UserRecord) => ({
  ...keys.user(user.id),
  ...indexKeys.users(user.createdAt, user.id),
  type: 'user',
  ...user,
});

/** The user is still as a credential about to be written copies them (so no credential is written from a stale read). */
export const currentUserCondition =
  'email = :email AND isAdmin = :isAdmin AND (attribute_not_exists(deletedAt) OR attribute_type(deletedAt, :null))';

/** No upload session opened since the quota check was read (a user stored before the count has none). */
export const openedAsRead = (check: QuotaCheck): string =>
  check.opened === 0 ? '(attribute_not_exists(uploadSessionsOpened) OR uploadSessionsOpened = :opened)' : 'uploadSessionsOpened = :opened';

/**
 * `bytes` more still fit the quota as read: without one, it is still unset; with one, it is the
 * same and the usage leaves room beside the holds read.
 */
export const quotaRoom = (check: QuotaCheck, bytes: number): { condition: string; values: Record<string, unknown> } =>
  check.quota === null
    ? { condition: '(attribute_not_exists(quotaSizeInBytes) OR attribute_type(quotaSizeInBytes, :null))', values: { ':null': 'NULL' } }
    : {
        condition: 'quotaSizeInBytes = :quota AND quotaUsageInBytes <= :maxUsage',
        values: { ':quota': check.quota, ':maxUsage': check.quota - check.held - bytes },
      };

/**
 * What a user's write refused means (docs/architecture.md, "Expected outcomes"): `user-exists` (a
 * new user's email is taken), `email-taken` (a changed email is), `label-taken`, `admin-exists`,
 * `oauth-taken` (the OAuth account is linked to another user), `no-admin` (no admin yet, so no other user), `user-changed` (a credential copies a user that
 * changed meanwhile), `changed` (the user changed since read).
 */
export type UserRefusal =
  | 'user-exists'
  | 'email-taken'
  | 'label-taken'
  | 'oauth-taken'
  | 'admin-exists'
  | 'no-admin'
  | 'user-changed'
  | 'changed';
