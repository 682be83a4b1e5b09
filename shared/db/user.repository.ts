import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CredentialCopy, UserRecord } from '../model/user.ts';
import { batchDelete, batchGet, chunk } from './batch.ts';
import { syncedEntityOf } from './changes.ts';
import { db } from './client.ts';
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import * as deletionWrites from './items/deletion-writes.ts';
import { userCodec } from './items/user.ts';
import * as userWrites from './items/user-writes.ts';
import { done, doneWith, type Outcome, refused } from './outcome.ts';
import * as partitions from './partitions.ts';
import { queryAll } from './query.ts';
import { deleteWrite, isCancelled, transact, tryTransact, tryWriteOne, updateWrite, type Write, writeIfPresent } from './transact.ts';

export type { UserRefusal } from './items/user.ts';

/**
 * Creates a user with its guards in one transaction: the email (and storage label and OAuth id, if any) must
 * be free, and either this is the admin sign-up and no admin exists yet, or an admin exists.
 * Two concurrent creates with the same email: exactly one wins.
 */
export const create = (user: UserRecord): Promise<Outcome<'user-exists' | 'label-taken' | 'oauth-taken' | 'admin-exists' | 'no-admin'>> => {
  const writes: Write<'user-exists' | 'label-taken' | 'oauth-taken' | 'admin-exists' | 'no-admin'>[] = [
    user.isAdmin ? userWrites.claimAdmin(user.id) : userWrites.requireAdmin(),
    userWrites.claimEmail(user.email, user.id),
    userWrites.create(user),
  ];
  if (user.storageLabel) writes.push(userWrites.claimStorageLabel(user.storageLabel, user.id));
  if (user.oauthId) writes.push(userWrites.claimOAuth(user.oauthId, user.id));
  return tryTransact(writes);
};

export const get = async (userId: string): Promise<UserRecord | undefined> => {
  const item = await getItem(keys.user(userId));
  return item ? userCodec.read(item) : undefined;
};

/** Users by id (BatchGetItem), in the order asked, missing ones left out; `consistent`: as they are now. */
export const getMany = async (userIds: readonly string[], options: { consistent?: boolean } = {}): Promise<UserRecord[]> => {
  const found = new Map(
    (
      await batchGet(
        [...new Set(userIds)].map((id) => keys.user(id)),
        options,
      )
    ).map((item) => [String(item.id), userCodec.read(item)]),
  );
  return userIds.flatMap((id) => found.get(id) ?? []);
};

// No user has this id (ids are random UUIDs v4; this one is not version 4).
const noUser = '00000000-0000-0000-0000-000000000000';

/**
 * The user with this email. Always two reads, also when the email is unknown (the second then
 * reads a key that cannot exist), so the time a login takes does not tell whether an email exists.
 */
export const getByEmail = async (email: string): Promise<UserRecord | undefined> => {
  const guard = await getItem(keys.email(email));
  const user = await get(typeof guard?.userId === 'string' ? guard.userId : noUser);
  return user?.email === email ? user : undefined;
};

/**
 * The user linked to this OAuth account (the provider's `sub`): its guard, then the user (docs/data-model.md,
 * pattern 98). A guard whose user no longer names it (never left by a write: each moves with the user) finds none.
 */
export const getByOAuthId = async (oauthId: string): Promise<UserRecord | undefined> => {
  if (!oauthId) return undefined;
  const guard = await getItem(keys.oauth(oauthId));
  if (typeof guard?.userId !== 'string') return undefined;
  const user = await get(guard.userId);
  return user?.oauthId === oauthId ? user : undefined;
};

/**
 * Replaces the password hash only if it is still the one the caller checked, so two concurrent
 * changes cannot both succeed against the same old password (`changed`).
 */
export const replacePasswordHash = async (
  userId: string,
  previousHash: string,
  passwordHash: string,
): Promise<Outcome<'changed', UserRecord>> => {
  try {
    // Built as every update is (with its change id), read back in the same call.
    const { Update } = updateWrite(keys.user(userId), 'SET passwordHash = :hash, updatedAt = :now', {
      condition: 'passwordHash = :previous',
      values: { ':hash': passwordHash, ':previous': previousHash, ':now': new Date().toISOString() },
    }).item;
    const { Attributes } = await db.send(new UpdateCommand({ ...(Update as NonNullable<typeof Update>), ReturnValues: 'ALL_NEW' }));
    return Attributes ? doneWith(userCodec.read(Attributes)) : refused('changed');
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return refused('changed');
    throw error;
  }
};

/**
 * Sets or clears the user's PIN code (its argon2id hash), on condition the PIN is still the one
 * checked (`previousHash`, null for none): `changed` when a concurrent change got there first.
 */
export const replacePinCodeHash = (userId: string, previousHash: string | null, pinCodeHash: string | null): Promise<Outcome<'changed'>> =>
  tryWriteOne(
    updateWrite(keys.user(userId), 'SET pinCodeHash = :hash, updatedAt = :now', {
      condition:
        previousHash === null
          ? 'attribute_exists(pk) AND (attribute_not_exists(pinCodeHash) OR pinCodeHash = :none)'
          : 'pinCodeHash = :previous',
      values: {
        ':hash': pinCodeHash,
        ':now': new Date().toISOString(),
        ...(previousHash === null ? { ':none': null } : { ':previous': previousHash }),
      },
      refusal: 'changed',
    }),
  );

/** Every user, oldest first: one Query of the users index (gsi1 `USERS`). */
export const list = async (): Promise<UserRecord[]> => (await queryAll(partitions.users())).map(userCodec.read);

/** A user as listed, with whether their assets trashed before trash entries existed have theirs ("Earlier shapes"). */
export type UserWithTrashState = UserRecord & { trashIndexed: boolean };

/**
 * Every user, oldest first, each with their item's `trashIndexed` (set once their earlier trash has
 * its entries, and on every user created since): the same one Query as `list`, so the nightly
 * trash check reads no user item again (docs/data-model.md, pattern 88).
 */
export const listWithTrashState = async (): Promise<UserWithTrashState[]> =>
  (await queryAll(partitions.users())).map((item) => ({ ...userCodec.read(item), trashIndexed: item.trashIndexed === true }));

/**
 * Changes a user in one transaction, only if it is still as read: the email and storage-label
 * guards move with the values (a taken one cancels it with Immich's message), and so does the OAuth
 * account's. The credentials' copies are rewritten after (`rewriteCredentials`). Refused `changed`
 * (the user changed since read), `email-taken`, `label-taken` or `oauth-taken`, nothing written then.
 */
export const update = async (
  user: UserRecord,
  changes: Partial<UserRecord>,
): Promise<Outcome<'changed' | 'email-taken' | 'label-taken' | 'oauth-taken', UserRecord>> => {
  const updated: UserRecord = { ...user, ...changes, updatedAt: new Date().toISOString() };
  const writes: Write<'changed' | 'email-taken' | 'label-taken' | 'oauth-taken'>[] = [
    userWrites.set(user, { ...changes, updatedAt: updated.updatedAt }),
  ];
  if (updated.oauthId !== user.oauthId) {
    if (user.oauthId) writes.push(userWrites.releaseOAuth(user.oauthId));
    if (updated.oauthId) writes.push(userWrites.claimOAuth(updated.oauthId, user.id));
  }
  if (updated.email !== user.email) writes.push(...userWrites.moveEmail(user.id, user.email, updated.email));
  if (updated.storageLabel !== user.storageLabel) {
    if (user.storageLabel) writes.push(userWrites.releaseStorageLabel(user.storageLabel));
    if (updated.storageLabel) writes.push(userWrites.claimStorageLabel(updated.storageLabel, user.id));
  }
  const written = await tryTransact(writes);
  return written.ok ? doneWith(updated) : written;
};

/**
 * Removes one of the user's metadata rows (Immich's `user_metadata`: v3's `license`, `onboarding`)
 * by setting the fields that hold it, recorded for the sync stream (UserMetadataDeleteV1) in the
 * same transaction; `changed` when the user changed since read.
 */
export const removeMetadata = (user: UserRecord, key: 'license' | 'onboarding', fields: Partial<UserRecord>): Promise<Outcome<'changed'>> =>
  tryTransact([userWrites.set(user, { ...fields, updatedAt: new Date().toISOString() }), deletionWrites.userMetadata(user.id, key)]);

/**
 * A deleted user's purge begins (Immich's UserDelete): `removing`, with a new `updatedAt`, only
 * while they are still deleted. A restore read before it then loses its condition, and one read
 * after finds them being removed. `restored` when they were restored (or are gone).
 */
export const beginPurge = (userId: string): Promise<Outcome<'restored'>> =>
  tryWriteOne(
    updateWrite(keys.user(userId), 'SET #status = :removing, updatedAt = :now', {
      condition: 'attribute_type(deletedAt, :string)',
      names: { '#status': 'status' },
      values: { ':removing': 'removing', ':now': new Date().toISOString(), ':string': 'S' },
      refusal: 'restored',
    }),
  );

/**
 * What is left of a purged user once their library, albums, shares, people and credentials are
 * gone: their face index, timeline counters and trash entries, and any item of their own
 * partition no entity's deletion took (a person's name guard whose person was renamed, a tag's
 * value guard). Items the sync stream sends are not among them: each went with its record.
 */
export const deleteRemains = async (userId: string): Promise<void> => {
  const keyOf = (item: Record<string, unknown>) => ({ pk: String(item.pk), sk: String(item.sk) });
  const [derived, own] = await Promise.all([
    Promise.all(
      [partitions.faceIndex(userId), partitions.timeBuckets(userId), partitions.trash(userId)].map((partition) =>
        queryAll(partition, { attributes: ['pk', 'sk'] }),
      ),
    ),
    queryAll({ value: keys.user(userId).pk }, { attributes: ['pk', 'sk'] }),
  ]);
  const left = own.map(keyOf).filter((key) => key.sk !== keys.user(userId).sk && !syncedEntityOf(key));
  await batchDelete([...derived.flat().map(keyOf), ...left]);
};

/**
 * The user item itself, last of a purge, with its email, storage-label and OAuth guards and the record
 * that tells every user's apps (UserDeleteV1), in one transaction; only while they are still
 * deleted. `restored` when they were not (restored meanwhile, or gone already).
 */
export const deleteItem = async (user: UserRecord): Promise<Outcome<'restored'>> => {
  const guard = { condition: 'attribute_not_exists(pk) OR userId = :id', values: { ':id': user.id } };
  try {
    await transact([
      deleteWrite(keys.user(user.id), { condition: 'attribute_type(deletedAt, :string)', values: { ':string': 'S' }, sync: 'recorded' }),
      deletionWrites.user(user.id),
      deleteWrite(keys.email(user.email), guard),
      ...(user.storageLabel ? [deleteWrite(keys.storageLabel(user.storageLabel), guard)] : []),
      ...(user.oauthId ? [deleteWrite(keys.oauth(user.oauthId), guard)] : []),
    ]);
    return done();
  } catch (error) {
    if (isCancelled(error)) return refused('restored');
    throw error;
  }
};

/**
 * Rewrites what every credential of the user copies (email, role, whether the user is active):
 * its sessions, API keys and shared-link keys, each found under the user. A credential made
 * meanwhile checked the user item in its own transaction (`userWrites.isCurrent`), so none is
 * left with an old copy.
 */
export const rewriteCredentials = async (userId: string, copy: CredentialCopy): Promise<void> => {
  const [sessions, apiKeys, links] = await Promise.all([
    queryAll(partitions.userSessions(userId), { attributes: ['tokenHash'] }),
    queryAll(partitions.userApiKeys(userId), { attributes: ['keyHash'] }),
    queryAll(partitions.userSharedLinks(userId), { attributes: ['keyHash'] }),
  ]);
  const targets = [
    ...sessions.map((item) => keys.session(String(item.tokenHash))),
    ...apiKeys.map((item) => keys.apiKey(String(item.keyHash))),
    ...links.map((item) => keys.sharedLinkKey(String(item.keyHash))),
  ];
  for (const part of chunk(targets, 16)) {
    await Promise.all(
      part.map((key) =>
        // Ended meanwhile (a logout, a deleted key): nothing to rewrite.
        writeIfPresent(
          updateWrite(key, 'SET email = :email, isAdmin = :isAdmin, userActive = :active', {
            condition: 'present',
            values: { ':email': copy.email, ':isAdmin': copy.isAdmin, ':active': copy.userActive },
          }),
        ),
      ),
    );
  }
};
