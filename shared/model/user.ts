import * as v from 'valibot';
import { id, instant, nullable } from './fields.ts';

export const userStatuses = ['active', 'removing', 'deleted'] as const;
export type UserStatus = (typeof userStatuses)[number];

/** A user as stored. */
export const UserRecordSchema = v.object({
  id: id(),
  email: v.string(),
  name: v.string(),
  isAdmin: v.boolean(),
  /** argon2id, PHC string form. */
  passwordHash: v.string(),
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
});
export type UserRecord = v.InferOutput<typeof UserRecordSchema>;

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
  /** Set for a shared-link visitor: the link (and the key they presented). */
  /** A shared-link visitor: the link, its key, and `locked` while a password link's password is unproven. */
  sharedLink?: { id: string; key: string; locked?: true };
}

/** One user's visible, untrashed photos and videos. */
export interface UserStatistics {
  user: UserRecord;
  photos: number;
  videos: number;
}
