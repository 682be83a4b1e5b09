import { type PartnerRecord, PartnerRecordSchema } from '../model/partner.ts';
import { batchGet } from './batch.ts';
import { newChangeId } from './changes.ts';
import { codec } from './codec.ts';
import { getItem } from './get.ts';
import * as indexKeys from './index-keys.ts';
import * as keys from './item-keys.ts';
import * as deletionWrites from './items/deletion-writes.ts';
import { doneWith, type Outcome } from './outcome.ts';
import * as partitions from './partitions.ts';
import { queryAll } from './query.ts';
import { deleteWrite, isCancelled, putWrite, transact, tryTransact, tryWriteOne, updateWrite, type Write } from './transact.ts';

const partnerCodec = codec('partner', PartnerRecordSchema);

/**
 * A share one of whose users is deleted (their library hidden, docs/data-model.md, pattern 61) is
 * no share until a restore: `sharerDeleted` when the user sharing is, `recipientDeleted` when the
 * user shared with is.
 */
export const liveShare = (item: Record<string, unknown>): boolean => item.sharerDeleted !== true && item.recipientDeleted !== true;

/** Whether `sharedById` shares their library with `sharedWithId` (one GetItem). */
export const get = async (sharedById: string, sharedWithId: string): Promise<PartnerRecord | undefined> => {
  const item = await getItem(keys.partner(sharedWithId, sharedById));
  return item && liveShare(item) ? partnerCodec.read(item) : undefined;
};

/** Which of these users share their library with `sharedWithId` (BatchGetItem). */
export const partnersAmong = async (sharedByIds: readonly string[], sharedWithId: string): Promise<PartnerRecord[]> =>
  (await batchGet([...new Set(sharedByIds)].map((id) => keys.partner(sharedWithId, id)))).filter(liveShare).map(partnerCodec.read);

/** The partners sharing with a user (one Query of their partition). */
export const listSharingWith = async (userId: string): Promise<PartnerRecord[]> =>
  (await queryAll(partitions.partnersSharingWith(userId))).filter(liveShare).map(partnerCodec.read);

/** The partners a user shares with (one Query of gsi2). */
export const listSharedBy = async (userId: string): Promise<PartnerRecord[]> =>
  (await queryAll(partitions.partnersSharedBy(userId))).map(partnerCodec.read);

/** Creates a share; `exists` when there is one already. */
export const create = (partner: PartnerRecord): Promise<Outcome<'exists'>> =>
  tryWriteOne(
    putWrite(
      {
        ...keys.partner(partner.sharedWithId, partner.sharedById),
        ...indexKeys.partnersSharedBy(partner.sharedById, partner.sharedWithId),
        type: 'partner',
        ...partner,
      },
      { condition: 'absent', refusal: 'exists' },
    ),
  );

/** Ends a share; `gone` when there is none. */
export const remove = (sharedById: string, sharedWithId: string): Promise<Outcome<'gone'>> =>
  tryTransact([
    deleteWrite(keys.partner(sharedWithId, sharedById), { condition: 'present', sync: 'recorded', refusal: 'gone' }),
    ...deletionWrites.partner(sharedById, sharedWithId),
  ]);

/** Ends a share if it is still there (a user's purge), recorded as `remove` records it. */
export const removeIfShared = async (sharedById: string, sharedWithId: string): Promise<void> => {
  // None: nothing to end.
  await remove(sharedById, sharedWithId);
};

/** Sets `inTimeline` of a share with the caller; `gone` when there is none. */
export const setInTimeline = async (partner: PartnerRecord, inTimeline: boolean, now: string): Promise<Outcome<'gone', PartnerRecord>> => {
  const written = await tryWriteOne(
    updateWrite(keys.partner(partner.sharedWithId, partner.sharedById), 'SET inTimeline = :inTimeline, updatedAt = :now', {
      condition: 'present',
      values: { ':inTimeline': inTimeline, ':now': now },
      refusal: 'gone',
    }),
  );
  return written.ok ? doneWith({ ...partner, inTimeline, updatedAt: now }) : written;
};

/** Every share a user makes or is given, hidden ones too (a user's deletion, restore and purge). */
export const listPartnershipsOf = async (userId: string): Promise<{ sharedBy: PartnerRecord[]; sharingWith: PartnerRecord[] }> => {
  const [sharedBy, sharingWith] = await Promise.all([
    queryAll(partitions.partnersSharedBy(userId)),
    queryAll(partitions.partnersSharingWith(userId)),
  ]);
  return { sharedBy: sharedBy.map(partnerCodec.read), sharingWith: sharingWith.map(partnerCodec.read) };
};

/**
 * Hides (`deleted`) or shows again a user's shares, both ways, when they are deleted or restored
 * (pattern 61): each share is marked (`sharerDeleted` for those they make, `recipientDeleted` for
 * those they are given), so no one reads it meanwhile. Hidden, its deletion is recorded in the same
 * transaction for both users' sync (PartnerDeleteV1: the app drops the partner and their timeline);
 * shown again, it gets a new creation id, so the partner's library comes back to the apps as a
 * backfill, as for a new share. A share ended meanwhile is skipped.
 */
export const markPartnershipsDeleted = async (userId: string, deleted: boolean): Promise<void> => {
  const { sharedBy, sharingWith } = await listPartnershipsOf(userId);
  const mark = (share: PartnerRecord, flag: 'sharerDeleted' | 'recipientDeleted'): Write[] => {
    const key = keys.partner(share.sharedWithId, share.sharedById);
    return deleted
      ? [
          updateWrite(key, `SET ${flag} = :true`, { condition: 'present', values: { ':true': true } }),
          ...deletionWrites.partner(share.sharedById, share.sharedWithId),
        ]
      : [
          updateWrite(key, `SET createId = :createId REMOVE ${flag}`, {
            condition: `${flag} = :true`,
            values: { ':createId': newChangeId(), ':true': true },
          }),
        ];
  };
  await Promise.all(
    [...sharedBy.map((share) => mark(share, 'sharerDeleted')), ...sharingWith.map((share) => mark(share, 'recipientDeleted'))].map(
      (writes) =>
        transact(writes).catch((error: unknown) => {
          if (!isCancelled(error)) throw error;
        }),
    ),
  );
};
