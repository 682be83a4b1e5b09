import { randomUUID } from 'node:crypto';
import { requireCredentialProof } from '../../access/credential-change.ts';
import { managesUsers, requireUserUpdate, seesAllUsers } from '../../access/user-access.ts';
import { hashPassword } from '../../core/crypto.ts';
import { Forbidden, Inaccessible, Invalid, NotFound } from '../../core/errors.ts';
import * as sessionRepo from '../../db/session.repository.ts';
import * as userRepo from '../../db/user.repository.ts';
import { applyPreferences, preferencesOf } from '../../domain/preferences.ts';
import type { PreferencesChange, UserPreferences } from '../../model/preferences.ts';
import { sanitizeStorageLabel } from '../../model/storage-label.ts';
import type { Auth, CredentialCopy, NewUser, SignUp, UserRecord } from '../../model/user.ts';
import { unlessRefused, userRefused } from '../user-refusals.ts';

/** A user record with Immich's defaults (`shouldChangePassword` true, memories on, no quota). */
const newUserRecord = async (input: NewUser): Promise<UserRecord> => {
  const now = new Date().toISOString();
  const storageLabel = input.storageLabel === undefined ? null : input.storageLabel && sanitizeStorageLabel(input.storageLabel);
  return {
    id: randomUUID(),
    email: input.email,
    name: input.name,
    isAdmin: input.isAdmin ?? false,
    pinCodeHash: input.pinCode ? await hashPassword(input.pinCode) : null,
    // An OAuth user has no password (Immich's empty one): password login never matches it.
    passwordHash: input.password ? await hashPassword(input.password) : '',
    storageLabel,
    shouldChangePassword: input.shouldChangePassword ?? true,
    memoriesEnabled: input.memoriesEnabled ?? true,
    profileImagePath: '',
    oauthId: input.oauthId ?? '',
    status: 'active',
    deletedAt: null,
    quotaSizeInBytes: input.quotaSizeInBytes ?? null,
    quotaUsageInBytes: 0,
    uploadSessions: {},
    uploadSessionsOpened: 0,
    usagePhotos: 0,
    usageVideos: 0,
    usageByType: true,
    isOnboarded: false,
    license: null,
    createdAt: now,
    updatedAt: now,
    defaultLibraryId: randomUUID(),
    ...(input.avatarColor ? { avatarColor: input.avatarColor } : {}),
  };
};

/**
 * POST /user and POST /admin/users (admin only): email and storage label unique; an admin must
 * already exist, and there is one (a second is refused, as v1.100's PUT /user refuses one).
 */
export const createUser = async (input: NewUser): Promise<UserRecord> => {
  if (input.isAdmin === true) throw new Invalid('The server already has an admin');
  const user = await newUserRecord(input);
  unlessRefused(await userRepo.create(user));
  return user;
};

/**
 * An OAuth sign-in's new user (Immich's auto-register): no password, linked to the provider's `sub`.
 * The role claim's admin becomes the admin only while the server has none: there is one admin
 * (docs/immich-compatibility.md, "OAuth"); else a user.
 */
export const registerOAuthUser = async (input: Omit<NewUser, 'password'> & { oauthId: string }): Promise<UserRecord> => {
  const user = await newUserRecord({ ...input, password: '' });
  const created = await userRepo.create(user);
  if (created.ok) return user;
  if (created.reason === 'admin-exists') {
    const plain = { ...user, isAdmin: false };
    unlessRefused(await userRepo.create(plain));
    return plain;
  }
  throw userRefused(created.reason);
};

/** POST /auth/admin-sign-up: the first and only admin, with storage label `admin`. */
export const signUpAdmin = async (input: SignUp): Promise<UserRecord> => {
  const user = await newUserRecord({ ...input, isAdmin: true, storageLabel: 'admin' });
  unlessRefused(await userRepo.create(user));
  return user;
};

export const getMyUserInfo = async (auth: Auth): Promise<UserRecord> => {
  const user = await userRepo.get(auth.user.id);
  if (!user) throw new Inaccessible('User not found');
  return user;
};

/** Immich's `findOrFail`: a 400 for a user that is missing (or deleted, unless `withDeleted`). */
export const findOrFail = async (id: string, withDeleted = false): Promise<UserRecord> => {
  const user = await userRepo.get(id);
  if (!user || (!withDeleted && user.deletedAt !== null)) throw new Invalid('User not found');
  return user;
};

const copyOf = (user: UserRecord): CredentialCopy => ({
  email: user.email,
  isAdmin: user.isAdmin,
  userActive: user.deletedAt === null && user.status === 'active',
});

/** Saves the changes, then the credentials' copies when what they copy changed. */
const saveUser = async (user: UserRecord, requested: Partial<UserRecord>): Promise<UserRecord> => {
  // Only what differs: an update that changes nothing keeps `updatedAt` (Immich's e2e).
  const same = (a: unknown, b: unknown) => a === b || (typeof b === 'object' && b !== null && JSON.stringify(a) === JSON.stringify(b));
  const changes = Object.fromEntries(
    Object.entries(requested).filter(([key, value]) => !same(user[key as keyof UserRecord], value)),
  ) as Partial<UserRecord>;
  if (Object.keys(changes).length === 0) return user;
  const updated = unlessRefused(await userRepo.update(user, changes));
  const [before, after] = [copyOf(user), copyOf(updated)];
  if (before.email !== after.email || before.isAdmin !== after.isAdmin || before.userActive !== after.userActive) {
    await userRepo.rewriteCredentials(user.id, after);
  }
  return updated;
};

/**
 * Links the user to an OAuth account (its `sub`), or unlinks them (`''`): the account's guard moves
 * with it, so one linked to another user meanwhile is Immich's 400 (`oauth-taken`).
 */
export const setOAuthId = (user: UserRecord, oauthId: string): Promise<UserRecord> => saveUser(user, { oauthId });

/**
 * GET /user: every user, newest first. Immich's `isAll` is a boolean query parameter as NestJS
 * converts one (only `true` is true): `isAll=true` leaves deleted users out; none, `false` (what
 * its admin page sends, to offer a restore) or any other value keeps them (Immich's e2e case).
 */
export const getAllUsers = async (auth: Auth, isAll: string | undefined, publicUsers: boolean): Promise<UserRecord[]> =>
  // With `server.publicUsers` off, the caller alone, as v3's GET /users (docs/immich-compatibility.md, "Users a user sees").
  seesAllUsers(auth, publicUsers)
    ? (await userRepo.list()).filter((user) => isAll !== 'true' || user.deletedAt === null).reverse()
    : [await findOrFail(auth.user.id)];

/** GET /user/info/:id: any signed-in user may read any (not deleted) user, as in Immich. */
export const getUserById = async (id: string): Promise<UserRecord> => {
  const user = await userRepo.get(id);
  // Immich's NotFoundException here (a 404; its other user lookups answer 400).
  if (!user || user.deletedAt !== null) throw new NotFound('User not found');
  return user;
};

/** A change to a user's account, from v1.100's `PUT /user` or v3's `PUT /users/me`. */
export interface UserChange {
  id: string;
  email?: string | undefined;
  name?: string | undefined;
  password?: string | undefined;
  /** `''` or null: none. */
  storageLabel?: string | null | undefined;
  isAdmin?: boolean | undefined;
  shouldChangePassword?: boolean | undefined;
  memoriesEnabled?: boolean | undefined;
  /** null: back to the colour derived from the email. */
  avatarColor?: UserRecord['avatarColor'] | undefined;
  quotaSizeInBytes?: number | null | undefined;
  /** The admin's: a new PIN code of the locked folder, or null for none (every session of the user is locked). */
  pinCode?: string | null | undefined;
}

/**
 * PUT /user: a user changes themselves, the admin anyone (Immich's rules: only the admin changes
 * roles and storage labels, and here quotas too; there is one admin). The admin cannot drop their own role here (the
 * server would be left without one; Immich allowed it). Email and role changes reach every
 * session, API key and shared link of the user.
 */
export const updateUserInfo = async (auth: Auth, dto: UserChange): Promise<UserRecord> => {
  const user = await findOrFail(dto.id);
  requireUserUpdate(auth, dto.id);
  requireCredentialProof(auth, user, { password: dto.password !== undefined, email: dto.email !== undefined && dto.email !== user.email });
  const changes: Partial<UserRecord> = {};
  if (dto.email !== undefined) changes.email = dto.email;
  if (dto.name !== undefined) changes.name = dto.name;
  if (dto.password !== undefined) changes.passwordHash = await hashPassword(dto.password);
  if (dto.shouldChangePassword !== undefined) changes.shouldChangePassword = dto.shouldChangePassword;
  if (dto.memoriesEnabled !== undefined) changes.memoriesEnabled = dto.memoriesEnabled;
  if (dto.avatarColor !== undefined) changes.avatarColor = dto.avatarColor;
  // Quotas and storage labels are the admin's: a user's own values are ignored (Immich v1.100 let
  // a user lift their own quota; docs/immich-compatibility.md).
  if (managesUsers(auth)) {
    if (dto.quotaSizeInBytes !== undefined) changes.quotaSizeInBytes = dto.quotaSizeInBytes;
    if (dto.isAdmin === true && user.id !== auth.user.id) throw new Invalid('The server already has an admin');
    if (dto.isAdmin === false && user.id === auth.user.id) throw new Invalid('The admin cannot give up the admin role');
    if (dto.storageLabel !== undefined) changes.storageLabel = dto.storageLabel || null;
    if (dto.pinCode !== undefined) changes.pinCodeHash = dto.pinCode === null ? null : await hashPassword(dto.pinCode);
  }
  const saved = await saveUser(user, changes);
  // A new password ends the user's other sessions (the caller's own stays), as POST /auth/change-password does.
  if (changes.passwordHash !== undefined)
    await sessionRepo.deleteUserSessions(user.id, user.id === auth.user.id ? auth.sessionHash : undefined);
  // A PIN code set or reset by the admin: no session stays unlocked with the one before.
  if (changes.pinCodeHash !== undefined) await sessionRepo.lockUserSessions(user.id);
  return saved;
};

/**
 * DELETE /user/:id (admin): a soft delete, as Immich's: the user is `deleted` and can no longer
 * sign in or use any credential until restored; the nightly clean-up removes them for good after
 * `user.deleteDelay` days (shared/services/user/purge.service.ts). With `force` they are
 * `removing`: removed at the next hourly tick, whatever the delay, as Immich's forced delete
 * queues their removal at once.
 */
export const deleteUser = async (id: string, force: boolean): Promise<UserRecord> => {
  const user = await findOrFail(id);
  if (user.isAdmin) throw new Forbidden('Cannot delete admin user');
  return await saveUser(user, { status: force ? 'removing' : 'deleted', deletedAt: new Date().toISOString() });
};

/**
 * POST /user/:id/restore (admin): a deleted user comes back, with their sessions and keys. One
 * whose removal began (`removing`: a forced delete, or the nightly purge under way) is no longer
 * whole, so cannot come back.
 */
export const restoreUser = async (id: string): Promise<UserRecord> => {
  const user = await findOrFail(id, true);
  if (user.status === 'removing') throw new Invalid('User is being removed');
  return await saveUser(user, { status: 'active', deletedAt: null });
};

/**
 * PUT /users/me (v3): the caller's own email, name, avatar colour or password; a new password
 * no longer has to be changed (Immich v3's `updateMe`).
 */
export const updateMe = (
  auth: Auth,
  input: Pick<UserChange, 'email' | 'name' | 'password'> & { avatarColor?: UserRecord['avatarColor'] | undefined },
): Promise<UserRecord> => updateUserInfo(auth, { ...input, id: auth.user.id, ...(input.password ? { shouldChangePassword: false } : {}) });

/** GET /admin/users (v3, admin): every user (`withDeleted`: deleted ones too), or the one `id` names; newest first. */
export const searchUsersAdmin = async (filter: { id?: string | undefined; withDeleted?: boolean | undefined }): Promise<UserRecord[]> =>
  (await userRepo.list())
    .filter((user) => (filter.withDeleted || user.deletedAt === null) && (filter.id === undefined || user.id === filter.id))
    .reverse();

/**
 * GET /users (v3): the users a user may see, newest first: everyone not deleted when the
 * configuration's `server.publicUsers` is on (the default) or the caller is an admin, else
 * the caller alone (Immich v3's rule).
 */
export const searchUsers = async (auth: Auth, publicUsers: boolean): Promise<UserRecord[]> =>
  seesAllUsers(auth, publicUsers) ? searchUsersAdmin({}) : [await findOrFail(auth.user.id)];

/** GET /admin/users/:id/preferences (v3, admin). */
export const getUserPreferences = async (id: string): Promise<UserPreferences> => preferencesOf(await findOrFail(id, true));

/** PUT /admin/users/:id/preferences (v3, admin): as the user's own change. */
export const updateUserPreferences = async (id: string, change: PreferencesChange): Promise<UserPreferences> =>
  changePreferences(await findOrFail(id), change);

/** The named fields change; memories and the avatar's colour change on the user itself. */
const changePreferences = async (user: UserRecord, change: PreferencesChange): Promise<UserPreferences> => {
  const { preferences, fields } = applyPreferences(user, change);
  await saveUser(user, fields);
  return preferences;
};

/** GET /users/me/onboarding (v3): whether the caller went through the web app's onboarding. */
export const getOnboarding = async (auth: Auth): Promise<boolean> => (await getMyUserInfo(auth)).isOnboarded;

/**
 * PUT /users/me/onboarding and DELETE (false) (v3). Undone, the user's apps are told by the sync
 * stream that the onboarding row went (UserMetadataDeleteV1), so none keeps it.
 */
export const setOnboarding = async (auth: Auth, isOnboarded: boolean): Promise<boolean> => {
  const user = await getMyUserInfo(auth);
  if (!isOnboarded && user.isOnboarded) {
    unlessRefused(await userRepo.removeMetadata(user, 'onboarding', { isOnboarded: false }));
    return false;
  }
  return (await saveUser(user, { isOnboarded })).isOnboarded;
};

/** GET /users/me/preferences (v3): every group, the user's choices over Immich's defaults. */
export const getMyPreferences = async (auth: Auth): Promise<UserPreferences> => preferencesOf(await getMyUserInfo(auth));

/** PUT /users/me/preferences (v3): the named fields change; memories and the avatar's colour change on the user itself. */
export const updateMyPreferences = async (auth: Auth, change: PreferencesChange): Promise<UserPreferences> =>
  changePreferences(await getMyUserInfo(auth), change);
