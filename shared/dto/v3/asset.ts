/**
 * Immich v3.2's asset requests (`@immich/sdk` 3.2.2: AssetMediaCreateDto, AssetBulkUploadCheckDto,
 * UpdateAssetDto, AssetBulkUpdateDto, AssetBulkDeleteDto, AssetMediaOptionsDto), read into the
 * one model's inputs (shared/model/asset.ts, shared/model/upload.ts).
 */
import * as v from 'valibot';
import type { AssetEdit } from '../../model/asset.ts';
import { isTimeZone, offsetInRange, readEditedDate } from '../../model/date-taken.ts';
import { limits } from '../../model/limits.ts';
import type { NewAssetFields } from '../../model/upload.ts';
import { parseOrThrow } from '../validate.ts';
import { AssetMetadataUpsertItem } from './asset-metadata.ts';
import { boolean, coercedInteger, integer, isoDateTime, object, picklist, stringToBool, text, uuid, uuidsUpTo } from './common.ts';

/** A visibility a client may choose: `locked` is the locked folder (docs/immich-compatibility.md, "The locked folder"). */
const chosenVisibility = picklist(['archive', 'timeline', 'locked'] as const);

/** `metadata`: a JSON list of `{key, value}` (the iOS app's iCloud ids), kept with the new asset. */
const metadataItems = v.pipe(
  v.string('$property must be a string'),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    try {
      return JSON.parse(dataset.value) as unknown;
    } catch {
      addIssue({ message: '$property must be JSON' });
      return NEVER;
    }
  }),
  v.array(AssetMetadataUpsertItem, '$property must be an array'),
  // Written in the upload's one transaction (docs/immich-compatibility.md, "Asset metadata").
  v.maxLength(limits.uploadMetadataItems, `$property must contain at most ${limits.uploadMetadataItems} items`),
);

/** POST /assets: the form's text fields. v3 has no device ids; the apps still send them, and v1.100's routes list them. */
const AssetMediaCreateFields = object({
  fileCreatedAt: isoDateTime,
  fileModifiedAt: isoDateTime,
  duration: v.optional(coercedInteger(0)),
  filename: v.optional(text(limits.name)),
  isFavorite: v.optional(stringToBool),
  // The apps upload a live photo's video `hidden` before its photo; `locked` straight into the locked folder.
  visibility: v.optional(picklist(['archive', 'timeline', 'hidden', 'locked'] as const)),
  livePhotoVideoId: v.optional(uuid),
  metadata: v.optional(metadataItems),
  deviceAssetId: v.optional(text(limits.keyValue)),
  deviceId: v.optional(text(limits.keyValue)),
});

/** POST /assets' text fields as the one model takes them. Without the apps' device ids, the device is `NONE`. */
export const readUploadFieldsV3 = (fields: Record<string, string>): NewAssetFields => {
  const dto = parseOrThrow(AssetMediaCreateFields, fields);
  return {
    deviceAssetId: dto.deviceAssetId || 'NONE',
    deviceId: dto.deviceId || 'NONE',
    fileCreatedAt: new Date(dto.fileCreatedAt),
    fileModifiedAt: new Date(dto.fileModifiedAt),
    duration: dto.duration || null,
    isFavorite: dto.isFavorite,
    visibility: dto.visibility,
    livePhotoVideoId: dto.livePhotoVideoId,
    filename: dto.filename,
    metadata: dto.metadata,
  };
};

export const AssetBulkUploadCheckDto = object({
  assets: v.array(object({ id: text(limits.clientId), checksum: text(limits.checksum) }), '$property must be an array'),
});

const latitude = v.pipe(
  v.number('$property must be a number'),
  v.minValue(-90, '$property must be at least -90'),
  v.maxValue(90, '$property must be at most 90'),
);
const longitude = v.pipe(
  v.number('$property must be a number'),
  v.minValue(-180, '$property must be at least -180'),
  v.maxValue(180, '$property must be at most 180'),
);

/** What v3 edits that is not kept here: refused with a clear 400 rather than dropped. */
const notSupported = (what: string) => v.check(() => false, `${what} is not supported by this server yet`);

/**
 * A date taken as the web app sends it (`2024-05-01T10:00:00.000+02:00`), kept as written: its
 * offset is the time zone it sets (shared/domain/date-edit.ts). Local time is UTC−12 to UTC+14.
 */
const editedDate = v.pipe(
  v.string('$property must be a date-time'),
  v.check((x) => v.is(isoDateTime, x) && readEditedDate(x) !== undefined, '$property must be an ISO date-time'),
  v.check((x) => {
    const offset = readEditedDate(x)?.offset;
    return offset === undefined || offsetInRange(offset);
  }, '$property must have a UTC offset between -12:00 and +14:00'),
);

/** The edit fields of `UpdateAssetDto` and `AssetBulkUpdateDto`; both coordinates or neither. */
const editFields = {
  isFavorite: v.optional(boolean),
  visibility: v.optional(chosenVisibility),
  dateTimeOriginal: v.optional(editedDate),
  latitude: v.optional(latitude),
  longitude: v.optional(longitude),
  description: v.optional(text(limits.description)),
  rating: v.optional(
    v.nullable(
      v.pipe(
        integer(-1, 5),
        v.check((x) => x !== 0, '$property must be -1 or between 1 and 5'),
      ),
    ),
  ),
};

const bothCoordinates = <T extends { latitude?: number | undefined; longitude?: number | undefined }>() =>
  v.check<T, string>(
    (input) => (input.latitude === undefined) === (input.longitude === undefined),
    'latitude and longitude must be given together',
  );

const toEdit = (input: v.InferOutput<v.ObjectSchema<typeof editFields, undefined>>): AssetEdit => ({
  isFavorite: input.isFavorite,
  visibility: input.visibility,
  dateTimeOriginal: input.dateTimeOriginal,
  latitude: input.latitude,
  longitude: input.longitude,
  description: input.description,
  rating: input.rating,
});

/** PUT /assets/:id. Linking a live photo through `livePhotoVideoId` is not served yet. */
export const UpdateAssetDtoV3 = v.pipe(
  object({ ...editFields, livePhotoVideoId: v.optional(v.nullable(v.pipe(v.unknown(), notSupported('Linking a live photo')))) }),
  bothCoordinates(),
  v.transform(toEdit),
);

/**
 * PUT /assets: the same edits of many assets; dates also moved by minutes (`dateTimeRelative`)
 * and put in an IANA zone (`timeZone`). Duplicate groups are not served yet.
 */
export const AssetBulkUpdateDtoV3 = v.pipe(
  object({
    ...editFields,
    ids: uuidsUpTo(limits.bulkAssets),
    duplicateId: v.optional(v.nullable(v.pipe(v.unknown(), notSupported('duplicateId')))),
    // A century either way (in minutes): a date moved past the years a date can name is refused, not a 500.
    dateTimeRelative: v.optional(integer(-52_596_000, 52_596_000)),
    timeZone: v.optional(v.pipe(v.string('$property must be a string'), v.check(isTimeZone, '$property must be a valid IANA time zone'))),
  }),
  bothCoordinates(),
  // Immich's IsNotSiblingOf: a move and a date are not given together.
  v.check(
    (input) => input.dateTimeRelative === undefined || input.dateTimeOriginal === undefined,
    'dateTimeRelative cannot exist alongside dateTimeOriginal',
  ),
  v.transform((input) => ({
    ids: input.ids,
    edit: { ...toEdit(input), dateTimeRelative: input.dateTimeRelative, timeZone: input.timeZone },
  })),
);

/** DELETE /assets. */
export const AssetBulkDeleteDtoV3 = object({ ids: uuidsUpTo(limits.bulkAssets), force: v.optional(boolean) });

/** GET /assets/:id/thumbnail `?size=` (`original` is deprecated in v3: the original's own route). */
export const AssetMediaOptionsDto = object({
  size: v.optional(picklist(['original', 'fullsize', 'preview', 'thumbnail'] as const)),
  edited: v.optional(stringToBool),
});

/** GET /assets/:id/original `?edited=`: the edited full size, when the asset has one (a link's visitor always). */
export const AssetDownloadOriginalDto = object({ edited: v.optional(stringToBool) });

/** GET /assets/statistics `?isFavorite=&isTrashed=&visibility=`. */
export const AssetStatsDto = object({
  isFavorite: v.optional(stringToBool),
  isTrashed: v.optional(stringToBool),
  visibility: v.optional(picklist(['archive', 'timeline', 'hidden', 'locked'] as const)),
});
