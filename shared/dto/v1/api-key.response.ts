/** The v1.100 response shapes of this resource and their mappers (kept apart from its request schemas, so a bundle takes only what it uses). */
import type { ApiKeyListing } from '../../model/api-key.ts';

export interface APIKeyResponse {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

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
