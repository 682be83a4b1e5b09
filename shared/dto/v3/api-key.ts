/**
 * Immich v3.2's API keys (`@immich/sdk` 3.2.2: ApiKeyCreateDto, ApiKeyUpdateDto,
 * ApiKeyResponseDto, ApiKeyCreateResponseDto): v1.100's keys with a list of permissions
 * (shared/access/api-key-permission.ts).
 */
import * as v from 'valibot';
import type { ApiKeyListing } from '../../model/api-key.ts';
import { apiKeyPermissions } from '../../model/api-key-permission.ts';
import { limits } from '../../model/limits.ts';
import { dto, optional } from '../common.ts';

const name = optional(
  v.pipe(v.string('$property must be a string'), v.maxLength(limits.name, `$property must be at most ${limits.name} characters`)),
);

const permissions = v.pipe(
  v.array(v.picklist(apiKeyPermissions, 'Invalid permission'), '$property must be an array'),
  v.minLength(1, '$property must contain at least 1 element'),
);

export const ApiKeyCreateDto = dto({ name, permissions });
export const ApiKeyUpdateDto = dto({ name, permissions: optional(permissions) });

export interface ApiKeyResponseDto {
  createdAt: string;
  id: string;
  name: string;
  permissions: string[];
  updatedAt: string;
}

/** The new key, its secret once, and (as 3.2 answers) the key again under `apiKey`. */
export interface ApiKeyCreateResponseDto extends ApiKeyResponseDto {
  apiKey: ApiKeyResponseDto;
  secret: string;
}

export const mapApiKeyV3 = (key: ApiKeyListing): ApiKeyResponseDto => ({
  createdAt: key.createdAt,
  id: key.id,
  name: key.name,
  permissions: key.permissions,
  updatedAt: key.updatedAt,
});

export const mapCreatedApiKeyV3 = ({ secret, apiKey }: { secret: string; apiKey: ApiKeyListing }): ApiKeyCreateResponseDto => {
  const mapped = mapApiKeyV3(apiKey);
  return { ...mapped, apiKey: mapped, secret };
};
