import { randomUUID } from 'node:crypto';
import type * as v from 'valibot';
import { hashSecret, newSecret } from '../core/crypto.ts';
import { Inaccessible } from '../core/errors.ts';
import {
  ApiKeyGoneError,
  getUserApiKey,
  createApiKey as insertApiKey,
  listApiKeys,
  deleteApiKey as removeApiKey,
  renameApiKey,
} from '../db/api-key.repository.ts';
import type { APIKeyCreateDto, APIKeyUpdateDto } from '../dto/v1/api-key.ts';
import type { ApiKeyListing } from '../model/api-key.ts';
import type { Auth } from '../model/user.ts';

/** POST /api-key: the secret is returned once and stored only as its SHA-256. */
export const createApiKey = async (
  auth: Auth,
  input: v.InferOutput<typeof APIKeyCreateDto>,
): Promise<{ secret: string; apiKey: ApiKeyListing }> => {
  const secret = newSecret();
  const now = new Date().toISOString();
  const key = {
    id: randomUUID(),
    name: input.name ?? 'API Key',
    keyHash: hashSecret(secret),
    userId: auth.user.id,
    email: auth.user.email,
    isAdmin: auth.user.isAdmin,
    userActive: true,
    createdAt: now,
    updatedAt: now,
  };
  await insertApiKey(key);
  return { secret, apiKey: key };
};

/** GET /api-key: the caller's keys, newest first. */
export const getApiKeys = async (auth: Auth): Promise<ApiKeyListing[]> =>
  (await listApiKeys(auth.user.id)).sort((a, b) => b.createdAt.localeCompare(a.createdAt));

const ownKey = async (auth: Auth, id: string): Promise<ApiKeyListing> => {
  const key = await getUserApiKey(auth.user.id, id);
  if (!key) throw new Inaccessible('API Key not found');
  return key;
};

export const getApiKey = (auth: Auth, id: string): Promise<ApiKeyListing> => ownKey(auth, id);

export const deleteApiKey = async (auth: Auth, id: string): Promise<void> => {
  await removeApiKey(auth.user.id, await ownKey(auth, id));
};

/** PUT /api-key/:id: a new name for one of the caller's keys (its secret stays). */
export const updateApiKey = async (auth: Auth, id: string, input: v.InferOutput<typeof APIKeyUpdateDto>): Promise<ApiKeyListing> => {
  const key = await ownKey(auth, id);
  const updatedAt = new Date().toISOString();
  try {
    await renameApiKey(auth.user.id, key, input.name, updatedAt);
  } catch (error) {
    // Deleted meanwhile.
    if (error instanceof ApiKeyGoneError) throw new Inaccessible('API Key not found');
    throw error;
  }
  return { ...key, name: input.name, updatedAt };
};
