import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { BadRequestException } from '../http/errors.ts';
import { db, tableName } from './client.ts';
import { keys } from './keys.ts';
import { transact, type Write } from './transact.ts';

export type UserStatus = 'active' | 'removing' | 'deleted';

/** A user as stored (item type `user`). Only this module reads or writes the item. */
export interface UserRecord {
  id: string;
  email: string;
  name: string;
  isAdmin: boolean;
  /** argon2id, PHC string form. */
  passwordHash: string;
  storageLabel: string | null;
  shouldChangePassword: boolean;
  memoriesEnabled: boolean;
  profileImagePath: string;
  oauthId: string;
  status: UserStatus;
  deletedAt: string | null;
  quotaSizeInBytes: number | null;
  quotaUsageInBytes: number;
  createdAt: string;
  updatedAt: string;
  /** The user's upload library, the `libraryId` of every asset they upload. */
  defaultLibraryId: string;
}

const toItem = (user: UserRecord) => ({ ...keys.user(user.id), type: 'user', ...user });

const fromItem = (item: Record<string, unknown>): UserRecord => {
  const { pk: _pk, sk: _sk, type: _type, ...user } = item;
  return user as unknown as UserRecord;
};

const absent = 'attribute_not_exists(pk)';

/**
 * Creates a user with its guards in one transaction: the email (and storage label, if any) must
 * be free, and either this is the admin sign-up and no admin exists yet, or an admin exists.
 * Two concurrent creates with the same email: exactly one wins.
 */
export const createUser = async (user: UserRecord): Promise<void> => {
  const admin: Write = user.isAdmin
    ? {
        item: { Put: { TableName: tableName, Item: { ...keys.admin(), type: 'adminGuard', userId: user.id }, ConditionExpression: absent } },
        onConditionFailed: () => new BadRequestException('The server already has an admin'),
      }
    : {
        item: { ConditionCheck: { TableName: tableName, Key: keys.admin(), ConditionExpression: 'attribute_exists(pk)' } },
        // Immich's message, typo included.
        onConditionFailed: () => new BadRequestException('The first registered account must the administrator.'),
      };
  const writes: Write[] = [
    admin,
    {
      item: { Put: { TableName: tableName, Item: { ...keys.email(user.email), type: 'emailGuard', userId: user.id }, ConditionExpression: absent } },
      onConditionFailed: () => new BadRequestException('User exists'),
    },
    { item: { Put: { TableName: tableName, Item: toItem(user), ConditionExpression: absent } } },
  ];
  if (user.storageLabel) {
    writes.push({
      item: {
        Put: { TableName: tableName, Item: { ...keys.storageLabel(user.storageLabel), type: 'storageLabelGuard', userId: user.id }, ConditionExpression: absent },
      },
      onConditionFailed: () => new BadRequestException('Storage label already in use by another account'),
    });
  }
  await transact(writes);
};

export const getUser = async (userId: string): Promise<UserRecord | undefined> => {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.user(userId), ConsistentRead: true }));
  return Item ? fromItem(Item) : undefined;
};

// No user has this id (ids are random UUIDs v4; this one is not version 4).
const noUser = '00000000-0000-0000-0000-000000000000';

/**
 * The user with this email. Always two reads, also when the email is unknown (the second then
 * reads a key that cannot exist), so the time a login takes does not tell whether an email exists.
 */
export const getUserByEmail = async (email: string): Promise<UserRecord | undefined> => {
  const { Item: guard } = await db.send(new GetCommand({ TableName: tableName, Key: keys.email(email), ConsistentRead: true }));
  const user = await getUser(typeof guard?.userId === 'string' ? guard.userId : noUser);
  return user?.email === email ? user : undefined;
};

/**
 * Replaces the password hash only if it is still the one the caller checked, so two concurrent
 * changes cannot both succeed against the same old password.
 */
export const replacePasswordHash = async (userId: string, previousHash: string, passwordHash: string): Promise<UserRecord | undefined> => {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.user(userId),
        UpdateExpression: 'SET passwordHash = :hash, updatedAt = :now',
        ConditionExpression: 'passwordHash = :previous',
        ExpressionAttributeValues: { ':hash': passwordHash, ':previous': previousHash, ':now': new Date().toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes ? fromItem(Attributes) : undefined;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
};
