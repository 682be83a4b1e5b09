import * as v from 'valibot';
import type { DeviceSession, SignIn } from '../../model/session.ts';
import type { UserRecord } from '../../model/user.ts';
import { avatarColorFor } from '../common/avatar.ts';

export const UserAvatarColor = v.picklist(['primary', 'pink', 'red', 'yellow', 'blue', 'green', 'purple', 'orange', 'gray', 'amber']);

/** Immich's UserResponseDto: every key always present, `null` where Immich has null. */
export const UserResponseDto = v.strictObject({
  id: v.string(),
  email: v.string(),
  name: v.string(),
  profileImagePath: v.string(),
  avatarColor: UserAvatarColor,
  storageLabel: v.nullable(v.string()),
  shouldChangePassword: v.boolean(),
  isAdmin: v.boolean(),
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
  deletedAt: v.nullable(v.pipe(v.string(), v.isoTimestamp())),
  updatedAt: v.pipe(v.string(), v.isoTimestamp()),
  oauthId: v.string(),
  memoriesEnabled: v.boolean(),
  quotaSizeInBytes: v.nullable(v.number()),
  quotaUsageInBytes: v.number(),
  status: v.picklist(['active', 'removing', 'deleted']),
});
export type UserResponse = v.InferOutput<typeof UserResponseDto>;

/**
 * `LoginResponseDto`: v1.100's, with v3's `isOnboarded`, which is v3's own LoginResponseDto. POST
 * /auth/login is one path for both generations: v3's apps need the field (the mobile app refuses a
 * login answer without it, the web app goes to its onboarding by it), and a v1.100 client the
 * request tells (shared/http/generation.ts) gets v1.100's shape without it (`mapLoginV1`), which
 * Immich v1.100's own e2e suite asserts key by key (docs/immich-compatibility.md, "Paths both
 * generations share").
 */
export interface LoginResponse {
  accessToken: string;
  userId: string;
  userEmail: string;
  name: string;
  isAdmin: boolean;
  profileImagePath: string;
  shouldChangePassword: boolean;
  isOnboarded: boolean;
}

export const mapLogin = ({ accessToken, user }: SignIn): LoginResponse => ({
  accessToken,
  userId: user.id,
  userEmail: user.email,
  name: user.name,
  isAdmin: user.isAdmin,
  profileImagePath: user.profileImagePath,
  shouldChangePassword: user.shouldChangePassword,
  isOnboarded: user.isOnboarded,
});

/** v1.100's `LoginResponseDto` exactly. */
export type LoginResponseV1 = Omit<LoginResponse, 'isOnboarded'>;

export const mapLoginV1 = (signIn: SignIn): LoginResponseV1 => {
  const { isOnboarded: _, ...v1 } = mapLogin(signIn);
  return v1;
};

/** `LogoutResponseDto`: Immich's answer to every logout; `redirectUri` the login page, or an OAuth session's provider (functions/auth/logout.ts). */
export interface LogoutResponse {
  successful: boolean;
  redirectUri: string;
}

/** `AuthDeviceResponseDto`: one of the caller's sessions. */
export interface AuthDeviceResponseDto {
  id: string;
  createdAt: string;
  updatedAt: string;
  current: boolean;
  deviceType: string;
  deviceOS: string;
}

export const mapAuthDevice = ({ session, current }: DeviceSession): AuthDeviceResponseDto => ({
  id: session.id,
  createdAt: session.createdAt,
  updatedAt: session.updatedAt,
  current,
  deviceType: session.deviceType,
  deviceOS: session.deviceOS,
});

export interface ValidateAccessTokenResponseDto {
  authStatus: boolean;
}

/** The one way a user leaves the API (Immich's `mapUser`). */
export const mapUser = (user: UserRecord): UserResponse => ({
  id: user.id,
  email: user.email,
  name: user.name,
  profileImagePath: user.profileImagePath,
  avatarColor: user.avatarColor ?? avatarColorFor(user.email),
  storageLabel: user.storageLabel,
  shouldChangePassword: user.shouldChangePassword,
  isAdmin: user.isAdmin,
  createdAt: user.createdAt,
  deletedAt: user.deletedAt,
  updatedAt: user.updatedAt,
  oauthId: user.oauthId,
  memoriesEnabled: user.memoriesEnabled,
  quotaSizeInBytes: user.quotaSizeInBytes,
  quotaUsageInBytes: user.quotaUsageInBytes,
  status: user.status,
});

/** `CreateProfileImageResponseDto`: the user and their picture's storage key. */
export interface CreateProfileImageResponseDto {
  userId: string;
  profileImagePath: string;
}

export const mapProfileImage = (user: UserRecord): CreateProfileImageResponseDto => ({
  userId: user.id,
  profileImagePath: user.profileImagePath,
});
