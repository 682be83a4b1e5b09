import type { ApiKeyListing } from '../../model/api-key.ts';
import { limits } from '../../model/limits.ts';
import { dto, nonEmptyString, optional } from '../common.ts';

/** `name` is optional, but when given it must be a non-empty string. */
export const APIKeyCreateDto = dto({ name: optional(nonEmptyString(limits.name)) });

/** PUT /api-key/:id: `name` is required and non-empty. */
export const APIKeyUpdateDto = dto({ name: nonEmptyString(limits.name) });

/** `APIKeyResponseDto`. */
export interface APIKeyResponse {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

/** `APIKeyCreateResponseDto`: the secret, once. */
export interface APIKeyCreateResponse {
  secret: string;
  apiKey: APIKeyResponse;
}

export const mapApiKey = (key: ApiKeyListing): APIKeyResponse => ({
  id: key.id,
  name: key.name,
  createdAt: key.createdAt,
  updatedAt: key.updatedAt,
});

export const mapCreatedApiKey = ({ secret, apiKey }: { secret: string; apiKey: ApiKeyListing }): APIKeyCreateResponse => ({
  secret,
  apiKey: mapApiKey(apiKey),
});
