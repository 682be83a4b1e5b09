import { limits } from '../../model/limits.ts';
import { dto, nonEmptyString, optional } from '../common.ts';

/** `name` is optional, but when given it must be a non-empty string. */
export const APIKeyCreateDto = dto({ name: optional(nonEmptyString(limits.name)) });

/** PUT /api-key/:id: `name` is required and non-empty. */
export const APIKeyUpdateDto = dto({ name: nonEmptyString(limits.name) });
