/**
 * Immich v3.2's external-library requests (`@immich/sdk` 3.2.2: CreateLibraryDto, UpdateLibraryDto,
 * ValidateLibraryDto), checked as Immich checks them before this server answers that it has none
 * (docs/immich-compatibility.md, "What this server has none of").
 */
import * as v from 'valibot';
import { limits } from '../../model/limits.ts';
import { object, text, uuid } from './common.ts';

/** Immich's `stringArrayMax128`: at most 128 texts, none blank, none twice. */
const paths = v.optional(
  v.pipe(
    v.array(text(limits.keyValue), '$property must be an array'),
    v.maxLength(128, '$property must contain at most 128 elements'),
    v.check((items) => items.every((item) => item.trim() !== ''), 'Array items must not be empty'),
    v.check((items) => new Set(items).size === items.length, 'Array must have unique items'),
  ),
);
const name = v.optional(v.pipe(text(limits.keyValue), v.minLength(1, '$property must not be empty')));

export const CreateLibraryDto = object({ ownerId: uuid, name, importPaths: paths, exclusionPatterns: paths });
export const UpdateLibraryDto = object({ name, importPaths: paths, exclusionPatterns: paths });
export const ValidateLibraryDto = object({ importPaths: paths, exclusionPatterns: paths });
