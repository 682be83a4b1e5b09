import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { UserRecord } from '../model/user.ts';
import { db, tableName } from './client.ts';
import { userCodec, userWrites } from './entities/user.ts';
import { getItem } from './get.ts';
import { keys } from './keys.ts';
import { transact, type Write } from './transact.ts';

/**
 * Creates a user with its guards in one transaction: the email (and storage label, if any) must
 * be free, and either this is the admin sign-up and no admin exists yet, or an admin exists.
 * Two concurrent creates with the same email: exactly one wins.
 */
export const createUser = async (user: UserRecord): Promise<void> => {
  const writes: Write[] = [
    user.isAdmin ? userWrites.claimAdmin(user.id) : userWrites.requireAdmin(),
    userWrites.claimEmail(user.email, user.id),
    userWrites.create(user),
  ];
  if (user.storageLabel) writes.push(userWrites.claimStorageLabel(user.storageLabel, user.id));
  await transact(writes);
};

export const getUser = async (userId: string): Promise<UserRecord | undefined> => {
  const item = await getItem(keys.user(userId));
  return item ? userCodec.read(item) : undefined;
};

// No user has this id (ids are random UUIDs v4; this one is not version 4).
const noUser = '00000000-0000-0000-0000-000000000000';

/**
 * The user with this email. Always two reads, also when the email is unknown (the second then
 * reads a key that cannot exist), so the time a login takes does not tell whether an email exists.
 */
export const getUserByEmail = async (email: string): Promise<UserRecord | undefined> => {
  const guard = await getItem(keys.email(email));
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
    return Attributes ? userCodec.read(Attributes) : undefined;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
};
