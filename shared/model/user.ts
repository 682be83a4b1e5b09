import * as v from 'valibot';
import { id, instant, nullable } from './fields.ts';
import { LicenseSchema } from './license.ts';

const userStatuses = ['active', 'removing', 'deleted'] as const;

/** A user as stored. */
export const UserRecordSchema = v.object({
  id: id(),
  email: v.string(),
  name: v.string(),
  isAdmin: v.boolean(),
  /** argon2id, PHC string form. */
  passwordHash: v.string(),
  /** The locked folder's PIN code, argon2id as the password; null until one is set (v3's `/auth/pin-code`). */
  pinCodeHash: nullable(v.string()),
  storageLabel: nullable(v.string()),
  shouldChangePassword: v.boolean(),
  memoriesEnabled: v.boolean(),
  profileImagePath: v.string(),
  oauthId: v.string(),
  status: v.picklist(userStatuses),
  deletedAt: nullable(instant()),
  quotaSizeInBytes: nullable(v.number()),
  quotaUsageInBytes: v.number(),
  createdAt: instant(),
  updatedAt: instant(),
  /** The user's upload library, the `libraryId` of every asset they upload. */
  defaultLibraryId: id(),
  /** Chosen with PUT /user; absent, it is derived from the email (Immich's getRandomAvatarColor). */
  avatarColor: v.optional(nullable(v.picklist(['primary', 'pink', 'red', 'yellow', 'blue', 'green', 'purple', 'orange', 'gray', 'amber']))),
  /**
   * The user's open upload sessions by id, each holding its declared size against the quota until
   * it ends or expires (docs/large-uploads.md). An expired hold counts no more; the next session
   * opened removes it.
   */
  uploadSessions: v.optional(v.record(v.string(), v.object({ bytes: v.number(), expiresAt: instant() })), {}),
  /** Upload sessions ever opened: an upload's quota check conditions on it, so a hold taken meanwhile is never missed. */
  uploadSessionsOpened: v.optional(v.number(), 0),
  /**
   * Immich v3's preferences where the user chose other than the default, by group
   * (shared/domain/preferences.ts); absent: every default.
   */
  preferences: v.optional(v.record(v.string(), v.record(v.string(), v.unknown()))),
  /**
   * Of `quotaUsageInBytes`, the photos' and the videos' bytes (Immich v3's server statistics),
   * kept with it by every upload and deletion. Trusted only with `usageByType` (a user stored
   * before them is counted once, when the statistics first ask: docs/data-model.md).
   */
  usagePhotos: v.optional(v.number(), 0),
  usageVideos: v.optional(v.number(), 0),
  usageByType: v.optional(v.boolean(), false),
  /** Immich v3's user onboarding done (its `onboarding` user metadata): the web app shows it until then. */
  isOnboarded: v.optional(v.boolean(), false),
  /** The user's product key (Immich's `license` user metadata), once activated; absent or null: none. */
  license: v.optional(nullable(LicenseSchema), null),
});
export type UserRecord = v.InferOutput<typeof UserRecordSchema>;

/** A new user, from either generation (v1.100's `CreateUserDto`, v3's `UserAdminCreateDto`). */
export interface NewUser {
  email: string;
  name: string;
  password: string;
  /** Sanitised already (the edge's `toSanitized`); undefined: none. */
  storageLabel?: string | null | undefined;
  memoriesEnabled?: boolean | null | undefined;
  quotaSizeInBytes?: number | null | undefined;
  shouldChangePassword?: boolean | null | undefined;
  avatarColor?: UserRecord['avatarColor'] | undefined;
  isAdmin?: boolean | undefined;
  /** The locked folder's first PIN code (v3's admin create); null or absent: none. */
  pinCode?: string | null | undefined;
  /** The OAuth account (its `sub`) an OAuth sign-in registers the user with; absent: none. */
  oauthId?: string | undefined;
}

/**
 * What an upload is checked against (shared/domain/quota.ts): the quota as read, and the upload
 * sessions' holds read with it (`opened` dates them: a hold taken since changes it).
 */
export interface QuotaCheck {
  quota: number | null;
  /** Bytes the user's live upload sessions hold (but the one being completed). */
  held: number;
  opened: number;
}

/** What a credential (session, API key, shared-link key) carries of its user, so authenticating is one read. */
export const CredentialUserSchema = v.object({
  userId: id(),
  email: v.string(),
  isAdmin: v.boolean(),
  /** False while the user is deleted (DELETE /user/:id): the credential lets no one in until a restore. */
  userActive: v.optional(v.boolean(), true),
});

/** What every credential of a user copies of them, rewritten whenever it changes (docs/data-model.md). */
export type CredentialCopy = { email: string; isAdmin: boolean; userActive: boolean };

/** Who is calling: the user, and which credential they used. */
export interface Auth {
  /** For a shared-link visitor: the link's creator (as in Immich). */
  user: { id: string; email: string; isAdmin: boolean };
  /** Set when the caller signed in with a session token (its SHA-256); absent for an API key. */
  sessionHash?: string;
  /** That session's public id (Immich's auth device id), with `sessionHash`. */
  sessionId?: string;
  /** Until when the session is unlocked with the PIN code (Immich's elevated permission), while it is. */
  elevatedUntil?: string;
  /** The session's app must start its sync over (v3's `isPendingSyncReset`). */
  syncResetPending?: true;
  /** Set when the caller presented an API key: which one, and what it may do (a session may do everything). */
  apiKey?: { id: string; permissions: readonly string[] };
  /** A shared-link visitor (by its key or its slug): the link, and `locked` while a password link's password is unproven. */
  sharedLink?: { id: string; locked?: true };
}

/** One user's visible, untrashed photos and videos. */
export interface UserStatistics {
  user: UserRecord;
  photos: number;
  videos: number;
  /** The bytes of the user's photos and of their videos (v3). */
  usagePhotos: number;
  usageVideos: number;
}

/** The bytes an upload or a deletion adds to each kind of usage (negative for a deletion). */
export interface UsageChange {
  bytes: number;
  photos: number;
  videos: number;
}

/** A login's credentials, from either generation's request (the email already lower-cased). */
export interface LoginCredential {
  email: string;
  password: string;
}

/** The first (admin) account's sign-up, from either generation's request. */
export interface SignUp {
  email: string;
  password: string;
  name: string;
}

/** A password change: `invalidateSessions: false` (v3 only) keeps the user's other sessions. */
export interface PasswordChange {
  password: string;
  newPassword: string;
  invalidateSessions?: boolean | null | undefined;
}
