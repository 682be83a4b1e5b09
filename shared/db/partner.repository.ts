import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { Invalid } from '../core/errors.ts';
import { type PartnerRecord, PartnerRecordSchema } from '../model/partner.ts';
import { batchGet } from './batch.ts';
import { codec } from './codec.ts';
import { getItem } from './get.ts';
import { deletionWrites } from './items/deletion.ts';
import { indexKeys, keys, partitions } from './keys.ts';
import { queryAll } from './query.ts';
import { deleteWrite, flagWrite, putWrite, transact, updateWrite, writeIfPresent, writeOne } from './transact.ts';

const partnerCodec = codec('partner', PartnerRecordSchema);

/** A share whose sharer is deleted (their library hidden, docs/data-model.md) is no share until a restore. */
const live = (item: Record<string, unknown>): boolean => item.sharerDeleted !== true;

/** Whether `sharedById` shares their library with `sharedWithId` (one GetItem). */
export const getPartner = async (sharedById: string, sharedWithId: string): Promise<PartnerRecord | undefined> => {
  const item = await getItem(keys.partner(sharedWithId, sharedById));
  return item && live(item) ? partnerCodec.read(item) : undefined;
};

/** Which of these users share their library with `sharedWithId` (BatchGetItem). */
export const partnersAmong = async (sharedByIds: readonly string[], sharedWithId: string): Promise<PartnerRecord[]> =>
  (await batchGet([...new Set(sharedByIds)].map((id) => keys.partner(sharedWithId, id)))).filter(live).map(partnerCodec.read);

/** The partners sharing with a user (one Query of their partition). */
export const listPartnersSharingWith = async (userId: string): Promise<PartnerRecord[]> =>
  (await queryAll(partitions.partnersSharingWith(userId))).filter(live).map(partnerCodec.read);

/** The partners a user shares with (one Query of gsi2). */
export const listPartnersSharedBy = async (userId: string): Promise<PartnerRecord[]> =>
  (await queryAll(partitions.partnersSharedBy(userId))).map(partnerCodec.read);

/** Creates a share; a second one is Immich's 400 `Partner already exists`. */
export const createPartner = async (partner: PartnerRecord): Promise<void> => {
  await writeOne(
    putWrite(
      {
        ...keys.partner(partner.sharedWithId, partner.sharedById),
        ...indexKeys.partnersSharedBy(partner.sharedById, partner.sharedWithId),
        type: 'partner',
        ...partner,
      },
      { condition: 'absent', onConditionFailed: () => new Invalid('Partner already exists') },
    ),
  );
};

/** Ends a share; none is Immich's 400 `Partner not found`. */
export const removePartner = async (sharedById: string, sharedWithId: string): Promise<void> => {
  await transact([
    deleteWrite(keys.partner(sharedWithId, sharedById), {
      condition: 'present',
      sync: 'recorded',
      onConditionFailed: () => new Invalid('Partner not found'),
    }),
    ...deletionWrites.partner(sharedById, sharedWithId),
  ]);
};

/** Sets `inTimeline` of a share with the caller; undefined when there is none. */
export const setPartnerInTimeline = async (
  partner: PartnerRecord,
  inTimeline: boolean,
  now: string,
): Promise<PartnerRecord | undefined> => {
  try {
    await writeOne(
      updateWrite(keys.partner(partner.sharedWithId, partner.sharedById), 'SET inTimeline = :inTimeline, updatedAt = :now', {
        condition: 'present',
        values: { ':inTimeline': inTimeline, ':now': now },
      }),
    );
    return { ...partner, inTimeline, updatedAt: now };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
};

/**
 * Hides (`deleted`) or shows again a user's shares of their library, when they are deleted or
 * restored: every share they made is marked, so their partners read none of it meanwhile.
 */
export const markSharerDeleted = async (sharedById: string, deleted: boolean): Promise<void> => {
  const shares = await listPartnersSharedBy(sharedById);
  // A share ended meanwhile has nothing to mark.
  await Promise.all(
    shares.map((share) => writeIfPresent(flagWrite(keys.partner(share.sharedWithId, sharedById), 'sharerDeleted', deleted))),
  );
};
