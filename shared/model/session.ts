import * as v from 'valibot';
import { id, instant, nullable } from './fields.ts';
import { CredentialUserSchema, type UserRecord } from './user.ts';

/** What a user's list of sessions (their auth devices) holds of each session. */
export const SessionListingSchema = v.object({
  /** The public id (Immich's auth device id); the token hash is never shown. */
  id: id(),
  tokenHash: v.string(),
  deviceType: v.string(),
  deviceOS: v.string(),
  createdAt: instant(),
  updatedAt: instant(),
  /** Epoch seconds after which the session is void (DynamoDB TTL deletes it some time later). */
  ttl: v.number(),
  /** Its app must start its sync over (v3's PUT /sessions/:id); cleared when the app acks the reset. */
  isPendingSyncReset: v.optional(v.boolean(), false),
});
export type SessionListing = v.InferOutput<typeof SessionListingSchema>;

/**
 * A login session (Immich's `user_token`), stored under the SHA-256 of its token. It carries the
 * user's id, email and role so that authenticating a request is one GetItem.
 */
export const SessionRecordSchema = v.object({
  ...SessionListingSchema.entries,
  ...CredentialUserSchema.entries,
  /** Until when the session is unlocked with the PIN code (Immich's elevated session), or null. */
  pinExpiresAt: nullable(instant()),
});
export type SessionRecord = v.InferOutput<typeof SessionRecordSchema>;

/**
 * What using a session may change of its item, from any function (the PIN unlock kept, its device
 * and last use refreshed: shared/auth/authenticate.ts): a read-only function's role may update
 * session items' own attributes of this list and no other (infra/cdk/function-roles.ts).
 */
export const sessionUseAttributes = ['pinExpiresAt'] as const;

/** Sessions last as long as Immich's login cookie: 400 days. */
export const sessionLifetimeSeconds = 34_560_000;

/** A sign-in: the new session's token (returned once) and the user. */
export interface SignIn {
  accessToken: string;
  user: UserRecord;
}

/** One of the caller's sessions, and whether it is the one the request came with. */
export interface DeviceSession {
  session: SessionListing;
  current: boolean;
}
