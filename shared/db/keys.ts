/**
 * Every key shape in the table, as pure functions. docs/data-model.md lists the same shapes, and
 * test/unit/keys.test.ts checks that the two agree.
 */
export interface Key {
  pk: string;
  sk: string;
}

export const keys = {
  /** A user's profile. Its partition also holds the user's session and API-key index entries. */
  user: (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'USER' }),
  /** Uniqueness of an email (lower-cased); holds the userId, so login finds the user by email. */
  email: (email: string): Key => ({ pk: `EMAIL#${email}`, sk: 'EMAIL' }),
  /** Uniqueness of a storage label. */
  storageLabel: (label: string): Key => ({ pk: `LABEL#${label}`, sk: 'LABEL' }),
  /** Exists once the admin exists: only one admin can ever sign up. */
  admin: (): Key => ({ pk: 'ADMIN', sk: 'ADMIN' }),
  /** A session, by SHA-256 of its token: the one GetItem of each session-authenticated request. */
  session: (tokenHash: string): Key => ({ pk: `SESSION#${tokenHash}`, sk: 'SESSION' }),
  /** The same session listed under its user, so all of a user's sessions can be found and ended. */
  userSession: (userId: string, tokenHash: string): Key => ({ pk: `USER#${userId}`, sk: `SESSION#${tokenHash}` }),
  /** An API key, by SHA-256 of its secret: the one GetItem of each key-authenticated request. */
  apiKey: (keyHash: string): Key => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  /** The same key listed under its user, by its public id. */
  userApiKey: (userId: string, apiKeyId: string): Key => ({ pk: `USER#${userId}`, sk: `APIKEY#${apiKeyId}` }),
  /** The system configuration: one item holding the differences from the defaults. */
  config: (): Key => ({ pk: 'CONFIG', sk: 'CONFIG' }),
} as const;

/** Prefixes of the sort keys queried with begins_with. */
export const prefixes = {
  userSessions: 'SESSION#',
  userApiKeys: 'APIKEY#',
} as const;
