import type { ApiKeyListing } from '../../model/api-key.ts';

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
