import type { NotificationRecord } from '../model/notification.ts';
import { notificationTtl } from '../model/notification.ts';
import { batchDelete, batchGet, batchPut } from './batch.ts';
import * as keys from './item-keys.ts';
import { notificationCodec } from './items/notification.ts';
import { done, type Outcome, refused } from './outcome.ts';
import * as partitions from './partitions.ts';
import { queryAll } from './query.ts';
import { putWrite, tryWriteOne, updateWrite, writeIfPresent } from './transact.ts';

/**
 * Immich v3's notifications (docs/data-model.md, pattern 94): each under its user, so reading one
 * by the caller's id is the ownership check and listing them is one Query of the caller's partition.
 */

const now = (): number => Math.floor(Date.now() / 1000);

/** Live ones only: an item past its `ttl` may wait up to two days for DynamoDB to delete it. */
const live = (items: readonly Record<string, unknown>[]): NotificationRecord[] =>
  items.map(notificationCodec.read).filter((notification) => notification.ttl > now());

const itemOf = ({ type, ...notification }: NotificationRecord): Record<string, unknown> => ({
  ...keys.notification(notification.userId, notification.id),
  type: 'notification',
  notificationType: type,
  ...notification,
});

/** Every live notification of a user (Query `USER#<id>` NOTIFICATION#), in no particular order. */
export const list = async (userId: string): Promise<NotificationRecord[]> => live(await queryAll(partitions.userNotifications(userId)));

/** The user's notifications of these ids that exist (someone else's read as missing), consistently, in the order asked. */
export const getMany = async (userId: string, ids: readonly string[]): Promise<NotificationRecord[]> =>
  live(
    await batchGet(
      [...new Set(ids)].map((id) => keys.notification(userId, id)),
      { consistent: true },
    ),
  );

/** New notifications (their ids are new), 25 a call. */
export const putMany = async (notifications: readonly NotificationRecord[]): Promise<void> => {
  await batchPut(notifications.map(itemOf));
};

/**
 * A notification whose id says what it is about (an album's update for one user in one slot of
 * time): written only if none with that id exists, so concurrent requests make it once. `exists`
 * when it existed already.
 */
export const putOnce = (notification: NotificationRecord): Promise<Outcome<'exists'>> =>
  tryWriteOne(putWrite(itemOf(notification), { condition: 'absent', refusal: 'exists' }));

/**
 * Marks a notification read at `readAt` (or unread: null), its `ttl` moved to match; `gone` when it
 * was deleted meanwhile (nothing is written then).
 */
export const setRead = async (notification: NotificationRecord, readAt: string | null): Promise<Outcome<'gone'>> =>
  (await writeIfPresent(
    updateWrite(keys.notification(notification.userId, notification.id), 'SET readAt = :readAt, #ttl = :ttl', {
      condition: 'present',
      names: { '#ttl': 'ttl' },
      values: { ':readAt': readAt, ':ttl': notificationTtl(notification.createdAt, readAt) },
    }),
  ))
    ? done()
    : refused('gone');

/** Deletes the user's notifications of these ids (idempotent), 25 a call. */
export const deleteMany = async (userId: string, ids: readonly string[]): Promise<void> => {
  await batchDelete([...new Set(ids)].map((id) => keys.notification(userId, id)));
};
