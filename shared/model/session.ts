import * as v from 'valibot';
import { id, instant, nullable } from './fields.ts';
import { CredentialUserSchema, type UserRecord } from './user.ts';

/**
 * What a session's device is named from (Immich's `getUserAgentDetails`: docs/immich-compatibility.md,
 * "Sessions and their devices"): the User-Agent of the request that signed in, or that last
 * refreshed it, and the mobile app's `deviceModel` and `deviceType` headers. The names are derived
 * when shown (shared/domain/device.ts), so only the functions that list sessions carry the parser.
 */
const SessionAgentSchema = v.object({ userAgent: v.string(), deviceModel: v.string(), deviceType: v.string() });
export type SessionAgent = v.InferOutput<typeof SessionAgentSchema>;

/** How much of each header is kept: a User-Agent's names are in its first few hundred characters. */
const agentLimits = { userAgent: 512, header: 100 } as const;

/** A request's headers as a session's agent (lower-case names, as API Gateway gives them). */
export const agentOf = (headers: Record<string, string | undefined>): SessionAgent => ({
  userAgent: (headers['user-agent'] ?? '').slice(0, agentLimits.userAgent),
  deviceModel: (headers.devicemodel ?? '').slice(0, agentLimits.header),
  deviceType: (headers.devicetype ?? '').slice(0, agentLimits.header),
});

/** The app's version a User-Agent names (`immich-android/3.1.0`, or the older `Immich_iOS_1.132.3`), as Immich reads it; else null. */
export const appVersionOf = (userAgent: string): string | null =>
  /^immich-(?:android|ios|unknown)\/(.+)$/.exec(userAgent)?.[1] ?? /^Immich_(?:Android|iOS|Unknown)_(.+)$/.exec(userAgent)?.[1] ?? null;

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
  /** The app's version its User-Agent named (Immich's `appVersion`); null for anything but the apps. */
  appVersion: nullable(v.string()),
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
  /**
   * What its device is named from; absent: `deviceType` and `deviceOS` name it (a session made by
   * `POST /sessions`, or stored before). Kept on this item only, with `updatedAt` and `appVersion`:
   * using the session refreshes them here (the list of sessions reads them from here).
   */
  agent: v.optional(SessionAgentSchema),
});
export type SessionRecord = v.InferOutput<typeof SessionRecordSchema>;

/**
 * What using a session may change of its item, from any function (the PIN unlock kept, its device,
 * app version and last use refreshed: shared/auth/authenticate.ts): a read-only function's role may update
 * session items' own attributes of this list and no other (infra/cdk/function-roles.ts).
 */
export const sessionUseAttributes = ['pinExpiresAt', 'updatedAt', 'appVersion', 'agent'] as const;

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
