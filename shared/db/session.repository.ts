import { type SessionAgent, type SessionListing, SessionListingSchema, type SessionRecord, SessionRecordSchema } from '../model/session.ts';
import { batchDelete, batchGet } from './batch.ts';
import { codec } from './codec.ts';
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import * as userWrites from './items/user-writes.ts';
import type { Outcome } from './outcome.ts';
import * as partitions from './partitions.ts';
import { queryAll } from './query.ts';
import { deleteWrite, putWrite, transact, tryTransact, updateWrite, writeIfPresent } from './transact.ts';
import { updateIf } from './update.ts';

const sessionCodec = codec('session', SessionRecordSchema);
const listingCodec = codec('userSession', SessionListingSchema);

const listingOf = (s: SessionRecord): SessionListing => ({
  id: s.id,
  tokenHash: s.tokenHash,
  deviceType: s.deviceType,
  deviceOS: s.deviceOS,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
  ttl: s.ttl,
  isPendingSyncReset: s.isPendingSyncReset,
  appVersion: s.appVersion,
});

/** Stores a session; `user-changed` when its user changed since the copy it holds was read. */
export const create = (session: SessionRecord): Promise<Outcome<'user-changed'>> =>
  tryTransact([
    userWrites.isCurrent(session.userId, session),
    putWrite({ ...keys.session(session.tokenHash), type: 'session', ...session }, { condition: 'absent' }),
    putWrite(
      { ...keys.userSession(session.userId, session.tokenHash), type: 'userSession', ...listingOf(session) },
      { condition: 'absent' },
    ),
  ]);

const now = (): number => Math.floor(Date.now() / 1000);

/** The live session for a token hash, or undefined (missing, or past its expiry). */
export const get = async (tokenHash: string): Promise<SessionRecord | undefined> => {
  const item = await getItem(keys.session(tokenHash));
  if (!item) return undefined;
  const session = sessionCodec.read(item);
  return session.ttl > now() ? session : undefined;
};

export const remove = async (userId: string, tokenHash: string): Promise<void> => {
  await transact([deleteWrite(keys.session(tokenHash)), deleteWrite(keys.userSession(userId, tokenHash))]);
};

/** A user's live sessions (expired ones are left for TTL to delete). */
export const listUserSessions = async (userId: string): Promise<SessionListing[]> =>
  (await queryAll(partitions.userSessions(userId))).map(listingCodec.read).filter((entry) => entry.ttl > now());

/**
 * A user's live sessions as their own items hold them (the device, app version and last use that
 * using them refreshes: `refreshSessionUse`): the list's Query, then BatchGetItem of the items.
 */
export const listUserSessionRecords = async (userId: string): Promise<SessionRecord[]> => {
  const entries = await queryAll(partitions.userSessions(userId), { attributes: ['tokenHash'] });
  // Read consistently: a session just made (or refreshed) is listed as it is.
  const items = await batchGet(
    entries.map((entry) => keys.session(String(entry.tokenHash))),
    { consistent: true },
  );
  return items.map(sessionCodec.read).filter((session) => session.ttl > now());
};

/**
 * Records a session's use (Immich's refresh of its device, app version and `updatedAt`), if it
 * was last refreshed at `from` (as authenticating read it): of requests that find it due at once,
 * one writes (`changed` for the others). The session item only, one UpdateItem (docs/deployment.md,
 * "What the stack creates").
 */
export const refreshSessionUse = (
  tokenHash: string,
  from: string,
  use: { updatedAt: string; appVersion: string | null; agent: SessionAgent },
): Promise<Outcome<'changed'>> =>
  updateIf(keys.session(tokenHash), {
    expression: 'SET updatedAt = :now, appVersion = :appVersion, #agent = :agent',
    condition: 'updatedAt = :from',
    // AGENT is one of DynamoDB's reserved words.
    names: { '#agent': 'agent' },
    values: { ':from': from, ':now': use.updatedAt, ':appVersion': use.appVersion, ':agent': use.agent },
  });

/** Every session of a user, expired ones too (their items may wait for TTL): their token hashes, one Query of the list. */
export const listUserSessionHashes = async (userId: string): Promise<string[]> =>
  (await queryAll(partitions.userSessions(userId), { attributes: ['tokenHash'] })).map((entry) => String(entry.tokenHash));

/** Ends these sessions of a user (as listed by `listUserSessionHashes`): their items and list entries. */
export const deleteMany = async (userId: string, tokenHashes: readonly string[]): Promise<void> => {
  await batchDelete(tokenHashes.flatMap((tokenHash) => [keys.session(tokenHash), keys.userSession(userId, tokenHash)]));
};

/** Ends every session of a user except `keep` (the caller's own, when it has one). */
export const deleteUserSessions = async (userId: string, keep?: string): Promise<number> => {
  const ended = (await listUserSessionHashes(userId)).filter((tokenHash) => tokenHash !== keep);
  await deleteMany(userId, ended);
  return ended.length;
};

/**
 * Unlocks a session with the PIN code until `until`, or locks it (null): the session item only,
 * if it still exists. Not a change the apps sync.
 */
export const setPinExpiry = async (tokenHash: string, until: string | null): Promise<void> => {
  await writeIfPresent(
    updateWrite(keys.session(tokenHash), 'SET pinExpiresAt = :until', { condition: 'present', values: { ':until': until } }),
  );
};

/**
 * Moves a session's PIN unlock to `to` if it still ends at `from` (as authenticating read it): a
 * lock or another extension meanwhile wins. The session item only, one UpdateItem, which every
 * function's role may make on session items (docs/deployment.md, "Roles"). `changed` when it lost.
 */
export const extendSessionPin = (tokenHash: string, from: string, to: string): Promise<Outcome<'changed'>> =>
  updateIf(keys.session(tokenHash), {
    expression: 'SET pinExpiresAt = :to',
    condition: 'pinExpiresAt = :from',
    values: { ':from': from, ':to': to },
  });

/** Locks every session of a user (their PIN code was reset): one UpdateItem each. */
export const lockUserSessions = async (userId: string): Promise<void> => {
  for (const session of await listUserSessions(userId)) await setPinExpiry(session.tokenHash, null);
};
