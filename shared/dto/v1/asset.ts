import * as v from 'valibot';
import { Invalid } from '../../core/errors.ts';
import { durationOfText } from '../../model/asset.ts';
import { offsetInRange, readEditedDate } from '../../model/date-taken.ts';
import { limits } from '../../model/limits.ts';
import type { NewAssetFields } from '../../model/upload.ts';
import { as, booleanish, dto, isDateString, isPlainObject, objectList, optional, rules, uuid, uuidListUpTo } from '../common.ts';
import { parseOrThrow } from '../validate.ts';

/**
 * `@ValidateDate()`: a date string becomes a Date, then IsDate and IsNotEmpty run. (A present value
 * that is not a date string stops the whole request first: see `dateStringErrors`.)
 */
const validateDate = () =>
  v.pipe(
    v.unknown(),
    v.transform((x: unknown) => (isDateString(x) ? new Date(x) : x)),
    v.check((x: unknown) => x instanceof Date && !Number.isNaN(x.getTime()), '$property must be a Date instance'),
    rules.isNotEmpty,
    as<Date>(),
  );

/**
 * Immich converts date fields while it transforms the body, before validating, and throws
 * `<field> must be a date string` (a single string, not a list) for the first bad one, in the
 * order the client sent the fields.
 */
const dateStringError = (values: Record<string, unknown>, dateFields: readonly string[]): string | undefined => {
  const bad = Object.keys(values).find(
    (key) => dateFields.includes(key) && values[key] !== undefined && values[key] !== null && !isDateString(values[key]),
  );
  return bad === undefined ? undefined : `${bad} must be a date string`;
};

/** The text fields of POST /asset/upload (`CreateAssetDto`); the files are checked before these. */
export const createAssetFields = {
  // `@IsNotEmpty() @IsString()`: messages in class-validator's order (the decorators reversed).
  deviceAssetId: v.pipe(v.unknown(), rules.maxLength(limits.keyValue), rules.isString, rules.isNotEmpty, as<string>()),
  deviceId: v.pipe(v.unknown(), rules.maxLength(limits.keyValue), rules.isString, rules.isNotEmpty, as<string>()),
  fileCreatedAt: validateDate(),
  fileModifiedAt: validateDate(),
  duration: optional(v.pipe(v.unknown(), rules.maxLength(limits.keyValue), rules.isString, as<string>())),
  libraryId: optional(uuid()),
  isFavorite: optional(booleanish()),
  isArchived: optional(booleanish()),
  isVisible: optional(booleanish()),
  isOffline: optional(booleanish()),
  isReadOnly: optional(booleanish()),
};
export const CreateAssetDto = dto(createAssetFields);
export type CreateAssetInput = v.InferOutput<typeof CreateAssetDto>;

/**
 * v1.100's upload fields as the one model takes them: `isVisible: false` is `hidden`, else
 * `isArchived` is `archive`; the duration text in milliseconds (docs/immich-compatibility.md).
 */
const newAssetFieldsV1 = (dto: CreateAssetInput): NewAssetFields => ({
  deviceAssetId: dto.deviceAssetId,
  deviceId: dto.deviceId,
  fileCreatedAt: dto.fileCreatedAt,
  fileModifiedAt: dto.fileModifiedAt,
  duration: dto.duration ? durationOfText(dto.duration) : null,
  libraryId: dto.libraryId,
  isFavorite: dto.isFavorite,
  visibility: dto.isVisible === false ? 'hidden' : dto.isArchived ? 'archive' : 'timeline',
  isOffline: dto.isOffline,
  isReadOnly: dto.isReadOnly,
});

/** POST /asset/upload's text fields, read in Immich v1.100's order: a bad date first (a single message), then the DTO. */
export const readUploadFieldsV1 = (fields: Record<string, string>): NewAssetFields => {
  const dateError = dateStringError(fields, ['fileCreatedAt', 'fileModifiedAt']);
  if (dateError) throw new Invalid(dateError);
  return newAssetFieldsV1(parseOrThrow(CreateAssetDto, fields));
};

/** An upload session's kept text fields (shared/model/upload-session.ts), read again at its completion as v1.100's upload reads them. */
export const readSessionFieldsV1 = (fields: Record<string, unknown>): NewAssetFields =>
  newAssetFieldsV1(parseOrThrow(CreateAssetDto, fields));

const BulkUploadCheckItem = dto({
  id: v.pipe(v.unknown(), rules.maxLength(limits.clientId), rules.isNotEmpty, rules.isString, as<string>()),
  checksum: v.pipe(v.unknown(), rules.maxLength(limits.checksum), rules.isNotEmpty, rules.isString, as<string>()),
});

export const AssetBulkUploadCheckDto = dto({
  assets: objectList(BulkUploadCheckItem),
});

export const BulkIdsDto = dto({ ids: uuidListUpTo(limits.bulkAssets) });

export const AssetBulkDeleteDto = dto({ ids: uuidListUpTo(limits.bulkAssets), force: optional(booleanish()) });

const isLatitude = (x: unknown) => (typeof x === 'number' || (typeof x === 'string' && x.trim() !== '')) && Math.abs(Number(x)) <= 90;
const isLongitude = (x: unknown) => (typeof x === 'number' || (typeof x === 'string' && x.trim() !== '')) && Math.abs(Number(x)) <= 180;

// Immich's ValidateGPS: once either coordinate is given (null counts), both are required and checked.
const missingCoordinate = Symbol('missing coordinate');
const withGps = v.transform((input: unknown) => {
  if (!isPlainObject(input) || (input.latitude === undefined && input.longitude === undefined)) return input;
  return {
    ...input,
    latitude: input.latitude === undefined ? missingCoordinate : input.latitude,
    longitude: input.longitude === undefined ? missingCoordinate : input.longitude,
  };
});
/** `@ValidateGPS() @IsLatitude() @IsNotEmpty()` (or IsLongitude): messages in class-validator's order. */
const coordinate = (valid: (x: unknown) => boolean, message: string) =>
  v.pipe(
    v.unknown(),
    v.check((x: unknown) => x === undefined || (x !== missingCoordinate && x !== null && x !== ''), '$property should not be empty'),
    v.check((x: unknown) => x === undefined || (x !== missingCoordinate && valid(x)), message),
    v.transform((x: unknown) => (x === undefined ? undefined : Number(x))),
  );

/** `UpdateAssetBase`: what PUT /asset/:id and PUT /asset change. */
const updateAssetBase = {
  isFavorite: optional(booleanish()),
  isArchived: optional(booleanish()),
  // `@Optional() @IsDateString()`: kept as written, its offset the time zone it sets; stored as the
  // instant it names (shared/domain/date-edit.ts). Local time is UTC−12 to UTC+14.
  dateTimeOriginal: optional(
    v.pipe(
      v.unknown(),
      v.check(
        (x: unknown) => isDateString(x) && !Number.isNaN(new Date(x).getTime()) && readEditedDate(x) !== undefined,
        '$property must be a valid ISO 8601 date string',
      ),
      // Runs when the check above failed too (valibot runs a pipe's checks on): only on a string.
      v.check((x: unknown) => {
        const offset = typeof x === 'string' ? readEditedDate(x)?.offset : undefined;
        return offset === undefined || offsetInRange(offset);
      }, '$property must have a UTC offset between -12:00 and +14:00'),
      as<string>(),
    ),
  ),
  latitude: coordinate(isLatitude, '$property must be a latitude string or number'),
  longitude: coordinate(isLongitude, '$property must be a longitude string or number'),
};

/**
 * An edit as the one model takes it: `isArchived` a listed visibility (true the archive, false the
 * timeline; a hidden or locked asset stays where it is, as Immich v1.100's archive flag).
 */
const toEdit = <T extends { isArchived?: boolean | null | undefined }>({ isArchived, ...rest }: T) => ({
  ...rest,
  listedVisibility: isArchived === undefined || isArchived === null ? undefined : isArchived ? ('archive' as const) : ('timeline' as const),
});

/** `UpdateAssetDto` (PUT /asset/:id). */
export const UpdateAssetDto = v.pipe(
  v.unknown(),
  withGps,
  dto({
    ...updateAssetBase,
    description: optional(v.pipe(v.unknown(), rules.maxLength(limits.description), rules.isString, as<string>())),
  }),
  v.transform(toEdit),
);

/**
 * `AssetBulkUpdateDto` (PUT /asset): the same changes to many assets; `stackParentId` stacks them
 * under that asset, `removeParent` takes them out of their stacks (v1.100's stacks).
 */
export const AssetBulkUpdateDto = v.pipe(
  v.unknown(),
  withGps,
  dto({
    ...updateAssetBase,
    ids: uuidListUpTo(limits.bulkAssets),
    stackParentId: optional(uuid()),
    removeParent: optional(booleanish()),
  }),
  v.transform(toEdit),
);

/** `UpdateStackParentDto` (PUT /asset/stack/parent). */
export const UpdateStackParentDto = dto({ oldParentId: uuid(), newParentId: uuid() });

/** GET /asset/thumbnail/:id `?format=` (Immich's GetAssetThumbnailDto: WEBP by default). */
export const GetAssetThumbnailDto = dto({
  format: optional(
    v.pipe(
      v.unknown(),
      v.check((x) => x === 'WEBP' || x === 'JPEG', 'format must be one of the following values: JPEG, WEBP'),
      as<'WEBP' | 'JPEG'>(),
    ),
  ),
});

/** GET /asset/file/:id `?isThumb=&isWeb=` (Immich's ServeFileDto). */
export const ServeFileDto = dto({
  isThumb: optional(booleanish('isThumb must be a boolean value')),
  isWeb: optional(booleanish('isWeb must be a boolean value')),
});

// class-validator's `each` rules on a list of strings (a non-array value is its one element).
const eachNotEmpty = v.check(
  (x: unknown) => (Array.isArray(x) ? x : [x]).every((item) => item !== '' && item !== null && item !== undefined),
  'each value in $property should not be empty',
);
const eachString = v.check(
  (x: unknown) => (Array.isArray(x) ? x : [x]).every((item) => typeof item === 'string'),
  'each value in $property must be a string',
);
const arrayNotEmpty = v.check((x: unknown) => Array.isArray(x) && x.length > 0, '$property should not be empty');

/** `CheckExistingAssetsDto` (POST /asset/exist): which of a device's assets the server has. */
export const CheckExistingAssetsDto = dto({
  deviceAssetIds: v.pipe(v.unknown(), eachNotEmpty, eachString, arrayNotEmpty, as<string[]>()),
  deviceId: v.pipe(v.unknown(), rules.maxLength(limits.keyValue), rules.isNotEmpty, as<string>()),
});

/** `DeviceIdDto` (GET /asset/device/:deviceId). */
export const DeviceIdParams = dto({
  deviceId: v.pipe(v.unknown(), rules.maxLength(limits.keyValue), rules.isString, rules.isNotEmpty, as<string>()),
});
