import { randomUUID } from 'node:crypto';
import { requireApiKey, requireGrantable } from '../access/api-key-permission.ts';
import { hashSecret, newSecret } from '../core/crypto.ts';
import { Inaccessible } from '../core/errors.ts';
import * as apiKeyRepo from '../db/api-key.repository.ts';
import type { ApiKeyListing } from '../model/api-key.ts';
import type { Auth } from '../model/user.ts';
import { unlessRefused } from './user-refusals.ts';

/** A new key: its name (`API Key` when none or empty) and permissions (v1.100's keys: `all`). */
export interface NewApiKey {
  name?: string | null | undefined;
  permissions: readonly string[];
}

/** What a key changes: its name, its permissions, or both. */
export interface ApiKeyChange {
  name?: string | null | undefined;
  permissions?: readonly string[] | null | undefined;
}

/** POST /api-key, POST /api-keys: the secret is returned once and stored only as its SHA-256. */
export const createApiKey = async (auth: Auth, input: NewApiKey): Promise<{ secret: string; apiKey: ApiKeyListing }> => {
  requireGrantable(auth, input.permissions);
  const secret = newSecret();
  const now = new Date().toISOString();
  const key = {
    id: randomUUID(),
    name: input.name || 'API Key',
    keyHash: hashSecret(secret),
    permissions: [...input.permissions],
    userId: auth.user.id,
    email: auth.user.email,
    isAdmin: auth.user.isAdmin,
    userActive: true,
    createdAt: now,
    updatedAt: now,
  };
  unlessRefused(await apiKeyRepo.create(key));
  return { secret, apiKey: key };
};

/** GET /api-key: the caller's keys, newest first. */
export const getApiKeys = async (auth: Auth): Promise<ApiKeyListing[]> =>
  (await apiKeyRepo.listApiKeys(auth.user.id)).sort((a, b) => b.createdAt.localeCompare(a.createdAt));

const ownKey = async (auth: Auth, id: string): Promise<ApiKeyListing> => {
  const key = await apiKeyRepo.getUserApiKey(auth.user.id, id);
  if (!key) throw new Inaccessible('API Key not found');
  return key;
};

export const getApiKey = (auth: Auth, id: string): Promise<ApiKeyListing> => ownKey(auth, id);

/** GET /api-keys/me: the key the caller presented (a session has none: 403, as Immich). */
export const getMyApiKey = (auth: Auth): Promise<ApiKeyListing> => ownKey(auth, requireApiKey(auth).id);

export const deleteApiKey = async (auth: Auth, id: string): Promise<void> => {
  await apiKeyRepo.remove(auth.user.id, await ownKey(auth, id));
};

/** PUT /api-key/:id, PUT /api-keys/:id: a new name or permissions for one of the caller's keys (its secret stays). */
export const updateApiKey = async (auth: Auth, id: string, input: ApiKeyChange): Promise<ApiKeyListing> => {
  const key = await ownKey(auth, id);
  if (input.permissions) requireGrantable(auth, input.permissions);
  const fields = {
    name: input.name ?? key.name,
    permissions: input.permissions ? [...input.permissions] : key.permissions,
    updatedAt: new Date().toISOString(),
  };
  // Deleted meanwhile: gone.
  if (!(await apiKeyRepo.update(auth.user.id, key, fields)).ok) throw new Inaccessible('API Key not found');
  return { ...key, ...fields };
};
