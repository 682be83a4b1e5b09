import { randomUUID } from 'node:crypto';
import type * as v from 'valibot';

import { hashPassword } from '../auth/crypto.ts';
import { NotFound } from '../core/errors.ts';
import { getUser, createUser as insertUser } from '../db/user.repository.ts';
import { mapUser } from '../mappers/user.mapper.ts';
import type { Auth, UserRecord } from '../model/user.ts';
import { type CreateUserDto, type SignUpDto, sanitizeStorageLabel, type UserResponse } from '../schemas/user.ts';

type NewUser = v.InferOutput<typeof CreateUserDto> & { isAdmin?: boolean };

/** A user record with Immich's defaults (`shouldChangePassword` true, memories on, no quota). */
const newUserRecord = async (input: NewUser): Promise<UserRecord> => {
  const now = new Date().toISOString();
  const storageLabel = input.storageLabel === undefined ? null : input.storageLabel && sanitizeStorageLabel(input.storageLabel);
  return {
    id: randomUUID(),
    email: input.email,
    name: input.name,
    isAdmin: input.isAdmin ?? false,
    passwordHash: await hashPassword(input.password),
    storageLabel,
    shouldChangePassword: input.shouldChangePassword ?? true,
    memoriesEnabled: input.memoriesEnabled ?? true,
    profileImagePath: '',
    oauthId: '',
    status: 'active',
    deletedAt: null,
    quotaSizeInBytes: input.quotaSizeInBytes ?? null,
    quotaUsageInBytes: 0,
    createdAt: now,
    updatedAt: now,
    defaultLibraryId: randomUUID(),
  };
};

/** POST /user (admin only): email and storage label unique; an admin must already exist. */
export const createUser = async (input: v.InferOutput<typeof CreateUserDto>): Promise<UserResponse> => {
  const user = await newUserRecord(input);
  await insertUser(user);
  return mapUser(user);
};

/** POST /auth/admin-sign-up: the first and only admin, with storage label `admin`. */
export const signUpAdmin = async (input: v.InferOutput<typeof SignUpDto>): Promise<UserResponse> => {
  const user = await newUserRecord({ ...input, isAdmin: true, storageLabel: 'admin' });
  await insertUser(user);
  return mapUser(user);
};

export const getMyUserInfo = async (auth: Auth): Promise<UserResponse> => {
  const user = await getUser(auth.user.id);
  if (!user) throw new NotFound('User not found');
  return mapUser(user);
};
