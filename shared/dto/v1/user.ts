import * as v from 'valibot';
import { limits } from '../../model/limits.ts';
import { sanitizeStorageLabel } from '../../model/storage-label.ts';
import { avatarColors } from '../common/avatar.ts';
import { email, requiredEmail } from '../common/user.ts';
import { as, booleanish, dto, isOneOf, nonEmptyString, optional, rules, uuidV4 } from '../common.ts';

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

/**
 * `ChangePasswordDto`, one path for both generations: v3 adds `invalidateSessions` (false keeps the
 * user's other sessions); v1.100's clients never send it, and the other sessions end.
 */
export const ChangePasswordDto = dto({
  password: nonEmptyString(limits.password),
  newPassword: v.pipe(v.unknown(), rules.maxLength(limits.password), rules.minLength(8), rules.isNotEmpty, rules.isString, as<string>()),
  invalidateSessions: optional(booleanish()),
});

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

/** GET /user `?isAll`: only `true` leaves deleted users out (NestJS's boolean query conversion). */
export const GetAllUsersQuery = dto({ isAll: v.optional(v.string()) });
