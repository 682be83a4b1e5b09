import * as v from 'valibot';
import { id, instant } from './fields.ts';
import { CredentialUserSchema } from './user.ts';

/** What a user's list of API keys holds of each: never the secret, only its hash. */
export const ApiKeyListingSchema = v.object({
  id: id(),
  name: v.string(),
  keyHash: v.string(),
  createdAt: instant(),
  updatedAt: instant(),
  /** What the key may do (shared/access/api-key-permission.ts); a key stored before permissions existed may do everything. */
  permissions: v.optional(v.array(v.string()), () => ['all']),
});
export type ApiKeyListing = v.InferOutput<typeof ApiKeyListingSchema>;

/**
 * An API key, stored under the SHA-256 of its secret, carrying the user's id, email and role so
 * that authenticating a request is one GetItem.
 */
export const ApiKeyRecordSchema = v.object({ ...ApiKeyListingSchema.entries, ...CredentialUserSchema.entries });
export type ApiKeyRecord = v.InferOutput<typeof ApiKeyRecordSchema>;
