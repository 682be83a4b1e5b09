import * as v from 'valibot';
import { limits } from '../../model/limits.ts';
import { dto, nonEmptyString, optional } from '../common.ts';

/** `name` is optional, but when given it must be a non-empty string. */
export const APIKeyCreateDto = dto({ name: optional(nonEmptyString(limits.name)) });

/** PUT /api-key/:id: `name` is required and non-empty. */
export const APIKeyUpdateDto = dto({ name: nonEmptyString(limits.name) });

export const APIKeyResponseDto = v.strictObject({
  id: v.string(),
  name: v.string(),
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
  updatedAt: v.pipe(v.string(), v.isoTimestamp()),
});
export type APIKeyResponse = v.InferOutput<typeof APIKeyResponseDto>;

export const APIKeyCreateResponseDto = v.strictObject({ secret: v.string(), apiKey: APIKeyResponseDto });
export type APIKeyCreateResponse = v.InferOutput<typeof APIKeyCreateResponseDto>;
