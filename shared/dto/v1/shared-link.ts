import * as v from 'valibot';
import { Invalid } from '../../core/errors.ts';
import { limits } from '../../model/limits.ts';
import { as, booleanish, dto, isDateString, isOneOf, optional, optionalUuidListUpTo, rules, uuid, uuidListUpTo } from '../common.ts';

const linkTypes = ['ALBUM', 'INDIVIDUAL'] as const;

const optionalString = (max: number) => optional(v.pipe(v.unknown(), rules.maxLength(max), rules.isString, as<string>()));

/**
 * `@ValidateDate({ optional: true, nullable: true })`. Immich converts the value while it
 * transforms the body, before any validation, and a value that is not a date string stops the
 * request there with a single string message: thrown here for the same effect.
 */
const optionalDate = () =>
  optional(
    v.pipe(
      v.unknown(),
      v.transform((x: unknown) => {
        if (!isDateString(x)) throw new Invalid('expiresAt must be a date string');
        return new Date(x);
      }),
      v.check((x: unknown) => x instanceof Date && !Number.isNaN(x.getTime()), '$property must be a Date instance'),
      as<Date>(),
    ),
  );

/** What both creating and editing a link may set. */
const linkOptions = {
  description: optionalString(limits.description),
  password: optionalString(limits.password),
  expiresAt: optionalDate(),
  allowUpload: optional(booleanish()),
  allowDownload: optional(booleanish()),
  showMetadata: optional(booleanish()),
};

/** `SharedLinkCreateDto`. */
export const SharedLinkCreateDto = dto({
  type: v.pipe(v.unknown(), isOneOf(linkTypes), as<(typeof linkTypes)[number]>()),
  assetIds: optionalUuidListUpTo(limits.bulkAssets),
  albumId: optional(uuid()),
  ...linkOptions,
});
export type SharedLinkCreateInput = v.InferOutput<typeof SharedLinkCreateDto>;

/** `SharedLinkEditDto` (PATCH). */
export const SharedLinkEditDto = dto({
  ...linkOptions,
  changeExpiryTime: optional(booleanish()),
});
export type SharedLinkEditInput = v.InferOutput<typeof SharedLinkEditDto>;

/** `SharedLinkPasswordDto` (GET /shared-link/me query; `key` is the credential, read by auth). */
export const SharedLinkPasswordDto = dto({
  password: optionalString(limits.password),
  token: optionalString(limits.description),
  key: optionalString(limits.keyValue),
});

/** `AssetIdsDto` (PUT / DELETE /shared-link/:id/assets). */
export const AssetIdsDto = dto({ assetIds: uuidListUpTo(limits.bulkAssets) });

/** The path of a share page, `/share/{key+}`: anything after `/share/` (a key, or an app route below one). */
export const SharePageParams = dto({ key: v.pipe(v.unknown(), rules.isString, as<string>()) });

/** The path of a custom URL's page, `/s/{slug+}`: anything after `/s/` (Immich v3 reads it all as the slug). */
export const SlugPageParams = dto({ slug: v.pipe(v.unknown(), rules.isString, as<string>()) });
