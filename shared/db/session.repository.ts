import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchDelete } from './batch.ts';
import { db, tableName } from './client.ts';
import { keys, prefixes } from './keys.ts';
import { queryPrefix } from './query.ts';
import { transact } from './transact.ts';

/**
 * A login session (Immich's `user_token`), stored under the SHA-256 of its token. It carries the
 * user's id, email and role so that authenticating a request is one GetItem.
 */
export interface SessionRecord {
  /** The public id (Immich's auth device id); the token hash is never shown. */
  id: string;
  tokenHash: string;
  userId: string;
  email: string;
  isAdmin: boolean;
  deviceType: string;
  deviceOS: string;
  createdAt: string;
  updatedAt: string;
  /** Epoch seconds after which the session is void (DynamoDB TTL deletes it some time later). */
  ttl: number;
}

/** What a user's list of sessions (their auth devices) holds of each session. */
export type SessionListing = Pick<SessionRecord, 'id' | 'tokenHash' | 'deviceType' | 'deviceOS' | 'createdAt' | 'updatedAt' | 'ttl'>;

const listingOf = (s: SessionRecord): SessionListing => ({
  id: s.id, tokenHash: s.tokenHash, deviceType: s.deviceType, deviceOS: s.deviceOS, createdAt: s.createdAt, updatedAt: s.updatedAt, ttl: s.ttl,
});

/** Sessions last as long as Immich's login cookie: 400 days. */
export const sessionLifetimeSeconds = 34_560_000;

export const createSession = async (session: SessionRecord): Promise<void> => {
  const absent = 'attribute_not_exists(pk)';
  await transact([
    { item: { Put: { TableName: tableName, Item: { ...keys.session(session.tokenHash), type: 'session', ...session }, ConditionExpression: absent } } },
    {
      item: {
        Put: {
          TableName: tableName,
          Item: { ...keys.userSession(session.userId, session.tokenHash), type: 'userSession', ...listingOf(session) },
          ConditionExpression: absent,
        },
      },
    },
  ]);
};

/** The live session for a token hash, or undefined (missing, or past its expiry). */
export const getSession = async (tokenHash: string): Promise<SessionRecord | undefined> => {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.session(tokenHash), ConsistentRead: true }));
  if (!Item || typeof Item.ttl !== 'number' || Item.ttl <= Math.floor(Date.now() / 1000)) return undefined;
  return Item as SessionRecord;
};

export const deleteSession = async (userId: string, tokenHash: string): Promise<void> => {
  await transact([
    { item: { Delete: { TableName: tableName, Key: keys.session(tokenHash) } } },
    { item: { Delete: { TableName: tableName, Key: keys.userSession(userId, tokenHash) } } },
  ]);
};

/** A user's live sessions (expired ones are left for TTL to delete). */
export const listUserSessions = async (userId: string): Promise<SessionListing[]> => {
  const now = Math.floor(Date.now() / 1000);
  return (await queryPrefix<SessionListing>(keys.user(userId).pk, prefixes.userSessions)).filter((entry) => entry.ttl > now);
};

/** Ends every session of a user except `keep` (the caller's own, when it has one). */
export const deleteUserSessions = async (userId: string, keep?: string): Promise<number> => {
  const entries = await queryPrefix<{ tokenHash: string }>(keys.user(userId).pk, prefixes.userSessions, {
    ProjectionExpression: 'tokenHash',
  });
  const ended = entries.filter((entry) => entry.tokenHash !== keep);
  await batchDelete(ended.flatMap((entry) => [keys.session(entry.tokenHash), keys.userSession(userId, entry.tokenHash)]));
  return ended.length;
};
