import sanitize from 'sanitize-filename';
import * as v from 'valibot';
import { limits } from '../../model/limits.ts';
import type { SessionListing } from '../../model/session.ts';
import type { UserRecord } from '../../model/user.ts';
import { as, booleanish, dto, isOneOf, nonEmptyString, optional, rules, uuidV4 } from '../common.ts';

// validator.js isEmail with require_tld:false, as Immich uses it: `admin@local` is an email.
const emailPattern =
  /^(?!\.)(?!.*\.\.)[\w!#$%&'*+/=?^`{|}~.-]+(?<!\.)@(?=.{1,253}$)[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?(?:\.[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?)*$/i;

const toLowerCase = v.transform((x: unknown) => (typeof x === 'string' ? x.toLowerCase() : x));
const isEmail = v.check((x: unknown) => typeof x === 'string' && x.length <= 254 && emailPattern.test(x), '$property must be an email');

/** `@IsEmail({require_tld:false}) @Transform(toEmail)`: lower-cased before it is checked. */
export const email = () => v.pipe(v.unknown(), toLowerCase, isEmail, as<string>());

/** The same plus `@IsNotEmpty()`, as on login and admin sign-up. */
export const requiredEmail = () => v.pipe(v.unknown(), toLowerCase, rules.isNotEmpty, isEmail, as<string>());

/**
 * Immich's `toSanitized`: every `.` removed, then sanitize-filename (the library Immich uses), so
 * `my.label/../x` becomes `mylabelx`. Any non-string, `null` included, becomes `""` (Immich's quirk).
 */
export const sanitizeStorageLabel = (value: unknown): string => sanitize((typeof value === 'string' ? value : '').replaceAll('.', ''));

export const LoginCredentialDto = dto({ email: requiredEmail(), password: nonEmptyString(limits.password) });

export const SignUpDto = dto({ email: requiredEmail(), password: nonEmptyString(limits.password), name: nonEmptyString(limits.name) });

export const CreateUserDto = dto({
  email: email(),
  password: v.pipe(v.unknown(), rules.maxLength(limits.password), rules.isString, rules.isNotEmpty, as<string>()),
  name: v.pipe(v.unknown(), rules.maxLength(limits.name), rules.isString, rules.isNotEmpty, as<string>()),
  storageLabel: v.optional(v.pipe(v.unknown(), rules.maxLength(limits.keyValue), v.transform(sanitizeStorageLabel))),
  memoriesEnabled: optional(booleanish()),
  quotaSizeInBytes: optional(v.pipe(v.unknown(), rules.isSafe, rules.isPositive, rules.isNumber, as<number>())),
  shouldChangePassword: optional(booleanish()),
});

export const ChangePasswordDto = dto({
  password: nonEmptyString(limits.password),
  newPassword: v.pipe(v.unknown(), rules.maxLength(limits.password), rules.minLength(8), rules.isNotEmpty, rules.isString, as<string>()),
});

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

/** `LoginResponseDto`. */
export interface LoginResponse {
  accessToken: string;
  userId: string;
  userEmail: string;
  name: string;
  isAdmin: boolean;
  profileImagePath: string;
  shouldChangePassword: boolean;
}

export const mapLogin = ({ accessToken, user }: { accessToken: string; user: UserRecord }): LoginResponse => ({
  accessToken,
  userId: user.id,
  userEmail: user.email,
  name: user.name,
  isAdmin: user.isAdmin,
  profileImagePath: user.profileImagePath,
  shouldChangePassword: user.shouldChangePassword,
});

/** `LogoutResponseDto`: Immich's answer to every logout (no OAuth here). */
export interface LogoutResponse {
  successful: boolean;
  redirectUri: string;
}

export const logoutResponse: LogoutResponse = { successful: true, redirectUri: '/auth/login?autoLaunch=0' };

/** `AuthDeviceResponseDto`: one of the caller's sessions. */
export interface AuthDeviceResponseDto {
  id: string;
  createdAt: string;
  updatedAt: string;
  current: boolean;
  deviceType: string;
  deviceOS: string;
}

export const mapAuthDevice = ({ session, current }: { session: SessionListing; current: boolean }): AuthDeviceResponseDto => ({
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

const avatarColors = ['primary', 'pink', 'red', 'yellow', 'blue', 'green', 'purple', 'orange', 'gray', 'amber'] as const;

/** `UpdateUserDto` (PUT /user): Immich's `@Optional()` lets only absent values skip (null is checked). */
export const UpdateUserDto = dto({
  email: v.optional(email()),
  password: v.optional(v.pipe(v.unknown(), rules.maxLength(limits.password), rules.isString, rules.isNotEmpty, as<string>())),
  name: v.optional(v.pipe(v.unknown(), rules.maxLength(limits.name), rules.isNotEmpty, rules.isString, as<string>())),
  storageLabel: v.optional(v.pipe(v.unknown(), rules.maxLength(limits.keyValue), v.transform(sanitizeStorageLabel))),
  id: v.pipe(
    v.unknown(),
    v.check((x: unknown) => typeof x === 'string' && uuidV4.test(x), '$property must be a UUID'),
    rules.isNotEmpty,
    as<string>(),
  ),
  isAdmin: v.optional(booleanish()),
  shouldChangePassword: v.optional(booleanish()),
  memoriesEnabled: v.optional(booleanish()),
  avatarColor: v.optional(v.pipe(v.unknown(), isOneOf(avatarColors), as<(typeof avatarColors)[number]>())),
  // `@Optional({ nullable: true }) @IsNumber() @IsPositive()`: null removes the quota.
  quotaSizeInBytes: optional(v.pipe(v.unknown(), rules.isSafe, rules.isPositive, rules.isNumber, as<number>())),
});
export type UpdateUserInput = v.InferOutput<typeof UpdateUserDto>;

/** `DeleteUserDto` (DELETE /user/:id). */
export const DeleteUserDto = dto({ force: v.optional(booleanish()) });

/** GET /user `?isAll` (read raw by Immich: any value given leaves deleted users out). */
export const GetAllUsersQuery = dto({ isAll: v.optional(v.string()) });

/** Immich derives the colour from the email: the sum of its code points, modulo 10. */
export const avatarColorFor = (email: string): UserResponse['avatarColor'] => {
  let sum = 0;
  for (const character of email) sum += character.codePointAt(0) ?? 0;
  return avatarColors[sum % avatarColors.length] ?? 'primary';
};

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
