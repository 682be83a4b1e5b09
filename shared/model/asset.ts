import * as v from 'valibot';
import { id, instant, nullable } from './fields.ts';
import type { PersonRecord } from './person.ts';
import type { TagRecord } from './tag.ts';
import type { UserRecord } from './user.ts';

export const assetTypes = ['IMAGE', 'VIDEO', 'AUDIO', 'OTHER'] as const;
export type AssetType = (typeof assetTypes)[number];

/**
 * Where an asset shows (Immich v3's `visibility`): the timeline, the archive, nowhere (`hidden`: a
 * live photo's video part), or only in the locked folder. v1.100's view is derived from it:
 * `isArchived` is `archive`, `isVisible` is anything but `hidden` (docs/immich-compatibility.md).
 */
const assetVisibilities = ['archive', 'timeline', 'hidden', 'locked'] as const;
export type AssetVisibility = (typeof assetVisibilities)[number];

/**
 * Immich v1.100's duration text (`00:01:05.005`, or `0:00:00.00000` for none) as milliseconds:
 * what v1.100's clients send, and how items stored before v3's milliseconds hold it. Null when it
 * is zero or not such a text.
 */
export const durationOfText = (text: string): number | null => {
  const match = /^(\d+):(\d{1,2}):(\d{1,2}(?:\.\d+)?)$/.exec(text.trim());
  if (!match) return null;
  const millis = Math.round((Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3])) * 1000);
  return millis > 0 ? millis : null;
};

/** What Immich keeps of a file's metadata (its `exif` row), null where unknown. */
const ExifInfoSchema = v.object({
  make: nullable(v.string()),
  model: nullable(v.string()),
  exifImageWidth: nullable(v.number()),
  exifImageHeight: nullable(v.number()),
  fileSizeInByte: nullable(v.number()),
  orientation: nullable(v.string()),
  dateTimeOriginal: nullable(v.string()),
  modifyDate: nullable(v.string()),
  timeZone: nullable(v.string()),
  lensModel: nullable(v.string()),
  fNumber: nullable(v.number()),
  focalLength: nullable(v.number()),
  iso: nullable(v.number()),
  exposureTime: nullable(v.string()),
  latitude: nullable(v.number()),
  longitude: nullable(v.number()),
  city: nullable(v.string()),
  state: nullable(v.string()),
  country: nullable(v.string()),
  description: nullable(v.string()),
  projectionType: nullable(v.string()),
  /** Stars (Immich v3's `rating`): -1 (rejected) or 1 to 5, from the file or set by the user; v1.100 has none. */
  rating: nullable(v.number()),
});
export type ExifInfo = v.InferOutput<typeof ExifInfoSchema>;

/** The EXIF values GET /assets finds through an index of their own (docs/data-model.md), each sparse and per owner. */
export const searchableExifFields = ['make', 'model', 'lensModel', 'city', 'state', 'country'] as const;
export type SearchableExifField = (typeof searchableExifFields)[number];

/**
 * The stack an asset is in (Immich's `stackId` with its stack's primary asset and size), copied
 * onto every member by the writes that change the stack (shared/services/stack.service.ts).
 */
const StackRefSchema = v.object({ id: id(), primaryAssetId: id(), assetCount: v.number() });
export type StackRef = v.InferOutput<typeof StackRefSchema>;

/**
 * One edit of Immich v3's photo editor (its `asset_edit` row), applied in order to the image as
 * shown (oriented): a crop (first, if any) in its pixels, a quarter-turn rotation, a mirror.
 */
export const PhotoEditSchema = v.variant('action', [
  v.object({
    id: id(),
    action: v.literal('crop'),
    parameters: v.object({ x: v.number(), y: v.number(), width: v.number(), height: v.number() }),
  }),
  v.object({ id: id(), action: v.literal('rotate'), parameters: v.object({ angle: v.picklist([0, 90, 180, 270]) }) }),
  v.object({ id: id(), action: v.literal('mirror'), parameters: v.object({ axis: v.picklist(['horizontal', 'vertical']) }) }),
]);
export type PhotoEdit = v.InferOutput<typeof PhotoEditSchema>;
/** An edit as asked for, before it has an id. */
export type PhotoEditRequest = PhotoEdit extends infer E ? (E extends PhotoEdit ? Omit<E, 'id'> : never) : never;

/** An asset with its EXIF, as Immich's `assets` + `exif` rows. */
export const AssetRecordSchema = v.object({
  id: id(),
  ownerId: id(),
  libraryId: id(),
  deviceAssetId: v.string(),
  deviceId: v.string(),
  type: v.picklist(assetTypes),
  originalPath: v.string(),
  originalFileName: v.string(),
  sidecarPath: nullable(v.string()),
  /**
   * The exact object versions the upload wrote in the versioned originals bucket (deployed), so a
   * force delete removes them for good instead of hiding them behind a delete marker. Absent in
   * the local folder store, and in assets uploaded before versions were recorded.
   */
  originalVersion: v.optional(v.string()),
  sidecarVersion: v.optional(v.string()),
  /** SHA-1 of the file, hex. */
  checksum: v.string(),
  fileCreatedAt: instant(),
  fileModifiedAt: instant(),
  localDateTime: instant(),
  createdAt: instant(),
  updatedAt: instant(),
  deletedAt: nullable(instant()),
  isFavorite: v.boolean(),
  visibility: v.picklist(assetVisibilities),
  isOffline: v.boolean(),
  isReadOnly: v.boolean(),
  isExternal: v.boolean(),
  /** Milliseconds (Immich v3's); null for a still image. */
  duration: nullable(v.number()),
  livePhotoVideoId: nullable(id()),
  /** Base64 of the asset's thumbhash (Immich's `thumbhash`), set with its previews. */
  thumbhash: nullable(v.string()),
  /** The JPEG preview (Immich's `resizePath`, `thumbnail.jpegSize`), set when previews are made. */
  resizePath: nullable(v.string()),
  /** The WebP thumbnail (Immich's `webpPath`, `thumbnail.webpSize`). Absent on assets made before previews existed. */
  webpPath: v.optional(nullable(v.string())),
  exif: ExifInfoSchema,
  /**
   * Its city, state and country were found from its position by reverse geocoding (the media
   * job: docs/places.md), not read from the file; a file's own place names are never replaced.
   */
  geocoded: v.optional(v.boolean(), false),
  /** The people whose faces are on it, and those faces (set at upload; search reads them). */
  personIds: v.optional(v.array(id()), []),
  faceIds: v.optional(v.array(id()), []),
  /**
   * Faces were looked for in it (the media job's face detection: docs/faces.md), and the detected
   * faces a user deleted since (DELETE /faces/:id), which recognition never brings back.
   */
  facesDetected: v.optional(v.boolean()),
  droppedFaces: v.optional(v.array(id())),
  /**
   * Its CLIP embedding is in its owner's embedding index (docs/search.md): when it was made, and
   * under which model (`machineLearning.clip.modelName` then; absent: never embedded).
   */
  smartSearchAt: v.optional(v.string()),
  smartSearchModel: v.optional(v.string()),
  /** How many albums hold it (GET /assets isNotInAlbum). Kept by album changes. */
  albumCount: v.optional(v.number(), 0),
  /** Its stack, or null (absent on assets stored before stacks: none). */
  stack: v.optional(nullable(StackRefSchema), null),
  /** Immich v3's photo edits, in order (absent: none); the original is never changed. */
  edits: v.optional(v.array(PhotoEditSchema), []),
  /**
   * The edited image's files, made by the media function from the original and the edits (absent
   * or null: none yet): a full-size JPEG, the preview and the thumbnail.
   */
  editedFullsizePath: v.optional(nullable(v.string()), null),
  editedPreviewPath: v.optional(nullable(v.string()), null),
  editedThumbnailPath: v.optional(nullable(v.string()), null),
  /**
   * A video's encoded version (Immich's `encodedVideoPath`): the key of the MP4 the transcode
   * function made by the `ffmpeg` settings (docs/media.md, "Transcoding"); absent when none is
   * needed or none is made yet. Served for playback instead of the original.
   */
  encodedVideoPath: v.optional(v.string()),
  /** When its text was last looked for (Immich's `asset_job_status.ocrAt`; absent: never): docs/immich-compatibility.md, "OCR". */
  ocrAt: v.optional(v.string()),
  /**
   * Its duplicate group (Immich's `duplicateId`), shared by every asset duplicate detection found
   * the same photo (docs/immich-compatibility.md, "Duplicates"); absent or null: none.
   */
  duplicateId: v.optional(nullable(id())),
  /** When duplicate detection last looked at it (Immich's `duplicatesDetectedAt`): the "missing" run skips it. */
  duplicatesDetectedAt: v.optional(instant()),
});
export type AssetRecord = v.InferOutput<typeof AssetRecordSchema>;

/** A member of a stack other than its primary asset: out of the timeline when it is asked `withStacked`. */
export const hiddenInStack = (asset: Pick<AssetRecord, 'id' | 'stack'>): boolean =>
  asset.stack !== null && asset.stack.primaryAssetId !== asset.id;

/**
 * What faces and album entries copy from their asset, so that a person's or an album's list can
 * be filtered (trashed, archived, hidden) and ordered without reading every asset. Every change
 * of these on an asset rewrites the copies (`assetRepo.update`).
 */
export const AssetStatusSchema = v.object({
  fileCreatedAt: instant(),
  /** The timeline's bucket (GET /asset/time-buckets?albumId=|personId=); copies written before it existed have none (then `fileCreatedAt`). */
  localDateTime: v.optional(instant()),
  deletedAt: nullable(instant()),
  visibility: v.picklist(assetVisibilities),
});
export type AssetStatus = v.InferOutput<typeof AssetStatusSchema>;

export const statusOf = (asset: AssetRecord): AssetStatus => ({
  fileCreatedAt: asset.fileCreatedAt,
  localDateTime: asset.localDateTime,
  deletedAt: asset.deletedAt,
  visibility: asset.visibility,
});

/**
 * The asset's width and height as shown (Immich v3's `width`/`height`): the image's size, turned
 * for an orientation that sets it on its side (EXIF 5 to 8); null where unknown.
 */
export const dimensionsOf = (
  asset: Pick<AssetRecord, 'exif'> & { edits?: readonly PhotoEdit[] },
): { width: number | null; height: number | null } => {
  const { exifImageWidth: width, exifImageHeight: height, orientation } = asset.exif;
  const sideways = ['5', '6', '7', '8'].includes(orientation ?? '');
  const shown = sideways ? { width: height, height: width } : { width, height };
  return asset.edits && asset.edits.length > 0 ? editedDimensions(asset.edits, shown) : shown;
};

/** The size of the image its edits make (Immich's `getOutputDimensions`): a crop's, turned by a quarter rotation. */
const editedDimensions = <N extends number | null>(
  edits: readonly PhotoEdit[],
  size: { width: N; height: N },
): { width: N | number; height: N | number } => {
  let current: { width: N | number; height: N | number } = size;
  for (const edit of edits) {
    if (edit.action === 'crop') current = { width: edit.parameters.width, height: edit.parameters.height };
    else if (edit.action === 'rotate' && edit.parameters.angle % 180 === 90) current = { width: current.height, height: current.width };
  }
  return current;
};

/** In the library a user browses (the timeline or the archive): neither hidden (a live photo's video) nor locked. */
export const isListed = (visibility: AssetVisibility): boolean => visibility === 'timeline' || visibility === 'archive';

/** Shown in the timeline, a person's or an album's list and search results: not trashed, archived, hidden or locked. */
export const inTimeline = (status: Pick<AssetStatus, 'deletedAt' | 'visibility'>): boolean =>
  status.deletedAt === null && status.visibility === 'timeline';

/**
 * What someone else may see of an asset (through an album, a shared link or a partner's share):
 * neither trashed nor locked. Trash and the locked folder are the owner's alone.
 */
export const seenByOthers = (status: Pick<AssetStatus, 'deletedAt' | 'visibility'>): boolean =>
  status.deletedAt === null && status.visibility !== 'locked';

/** A face's box in pixels on an image of a known size (Immich's `asset_faces` columns). */
const FaceBoxSchema = v.object({
  imageWidth: v.number(),
  imageHeight: v.number(),
  boundingBoxX1: v.number(),
  boundingBoxY1: v.number(),
  boundingBoxX2: v.number(),
  boundingBoxY2: v.number(),
});
export type FaceBox = v.InferOutput<typeof FaceBoxSchema>;

/**
 * A face on an asset: a named region of the file, a face drawn by hand, or one the media function
 * detected (docs/faces.md). It shows a person, or no one yet (`personId` null: a detected face
 * recognition has not given a person, which its owner can name, as Immich's faces without a person).
 */
export const FaceRecordSchema = v.object({
  ...FaceBoxSchema.entries,
  id: id(),
  assetId: id(),
  personId: v.optional(nullable(id()), null),
  ownerId: id(),
  /** Position among the asset's regions, as the file lists them: faces are returned in this order. */
  index: v.optional(v.number(), 0),
  /**
   * Where it comes from: the file's regions (`exif`, Immich's name for it), a user drew it
   * (`manual`, POST /faces), or the media job detected it (`machine-learning`: docs/faces.md).
   */
  sourceType: v.optional(v.picklist(['exif', 'manual', 'machine-learning']), 'exif'),
});
export type FaceRecord = v.InferOutput<typeof FaceRecordSchema>;

/** The people the faces show, each once, in the faces' order (a face without a person shows no one). */
export const peopleOfFaces = (faces: readonly Pick<FaceRecord, 'personId'>[]): string[] => [
  ...new Set(faces.flatMap((face) => (face.personId === null ? [] : [face.personId]))),
];

/** A face as a person's list holds it: with its asset's status (a face without a person is on no list). */
export const FaceEntrySchema = v.object({ ...FaceRecordSchema.entries, personId: id(), ...AssetStatusSchema.entries });
export type FaceEntry = v.InferOutput<typeof FaceEntrySchema>;

export interface AssetWithFaces {
  asset: AssetRecord;
  faces: FaceRecord[];
}

/** An asset with its owner, its faces and their people: what a detailed view of it is built from. */
export interface AssetDetail {
  asset: AssetRecord;
  owner?: UserRecord | undefined;
  faces: readonly FaceRecord[];
  people: readonly PersonRecord[];
  /** The owner's tags on it (its owner's view only, as Immich loads them). */
  tags?: readonly TagRecord[];
}

/**
 * What a user may change on an asset, from either generation (PUT /asset/:id and PUT /asset,
 * PUT /assets/:id and PUT /assets); absent and null leave a field alone.
 */
export interface AssetEdit {
  isFavorite?: boolean | null | undefined;
  /** v3's visibility; `hidden` is the server's own (a live photo's video), never a user's choice. */
  visibility?: Exclude<AssetVisibility, 'hidden'> | undefined;
  /**
   * A visibility set only on an asset in the timeline or the archive (a hidden or locked asset stays
   * where it is): v1.100's `isArchived`, read into the one model by its DTO (true the archive, false
   * the timeline). v3's `visibility`, set as given, cannot say "only if listed", so it is its own field.
   */
  listedVisibility?: 'timeline' | 'archive' | undefined;
  description?: string | null | undefined;
  /** v3's stars: -1, 1 to 5, or null for none. */
  rating?: number | null | undefined;
  /** The date taken as written (ISO 8601; its offset, if any, is the time zone it sets: shared/domain/date-edit.ts). */
  dateTimeOriginal?: string | null | undefined;
  /** v3's bulk edit: minutes the date taken moves by, and the IANA zone it is put in. */
  dateTimeRelative?: number | undefined;
  timeZone?: string | undefined;
  latitude?: number | undefined;
  longitude?: number | undefined;
}

/** Where an edit puts an asset: its visibility as given, or its listed visibility if the asset is in the timeline or the archive. */
export const visibilityAfter = (current: AssetVisibility, edit: Pick<AssetEdit, 'visibility' | 'listedVisibility'>): AssetVisibility => {
  if (edit.visibility !== undefined) return edit.visibility;
  if (edit.listedVisibility === undefined || current === 'hidden' || current === 'locked') return current;
  return edit.listedVisibility;
};

/** fileCreatedAt, then id: the order Immich's lists use (ties broken by id so pages are stable). */
export const byFileCreatedAt =
  (order: 'asc' | 'desc') =>
  (a: { fileCreatedAt: string; id: string }, b: { fileCreatedAt: string; id: string }): number =>
    (order === 'asc' ? a.fileCreatedAt.localeCompare(b.fileCreatedAt) : b.fileCreatedAt.localeCompare(a.fileCreatedAt)) ||
    a.id.localeCompare(b.id);

/**
 * An asset as a view shows it: a visitor's `sanitized` (the link hides metadata) or with its
 * `exif` (no owner, no people); a user's `full`, with owner and people (none for someone else's).
 */
export type AssetInfo = ({ view: 'sanitized' | 'exif'; asset: AssetRecord } | ({ view: 'full' } & AssetDetail)) & {
  /** The original's media type, by its file name's extension (Immich's `originalMimeType`). */
  originalMimeType: string;
};

/** One result of a metadata search: the asset, with its faces and their people when `withPeople` loaded them. */
export interface SearchHit {
  asset: AssetRecord;
  faces?: readonly FaceRecord[];
  people?: ReadonlyMap<string, PersonRecord>;
}

/** A page of search results, and whether another follows. */
export interface SearchPage {
  items: SearchHit[];
  hasNextPage: boolean;
}

/** A city and one of the caller's photos taken there (the explore page). */
export interface CityAsset {
  city: string;
  asset: AssetRecord;
}

/** The caller's photos of one earlier year's day (the memory lane). */
export interface YearAgo {
  yearsAgo: number;
  assets: AssetRecord[];
}
