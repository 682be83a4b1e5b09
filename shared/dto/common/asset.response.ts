/**
 * What both generations answer alike of an asset: the SHA-1 in base64, the exif fields they share
 * (v3 adds its `rating`), and the bulk upload check. docs/immich-compatibility.md, "Two generations".
 */
import type { ExifInfo } from '../../model/asset.ts';
import type { UploadCheck } from '../../model/upload.ts';

/** What the server says of one file a client asks about before uploading it. */
export interface AssetBulkUploadCheckResult {
  id: string;
  action: 'accept' | 'reject';
  reason?: 'duplicate' | 'unsupported-format';
  assetId?: string;
}

export interface AssetBulkUploadCheckResponseDto {
  results: AssetBulkUploadCheckResult[];
}

/**
 * Each file `accept`ed, or `reject`ed as a `duplicate` of the owner's asset. v3's POST
 * /assets/bulk-upload-check answers the same: its optional `isTrashed` is left out, which would cost
 * a read of every duplicate (the CLI reads `action` alone).
 */
export const mapBulkUploadCheck = (checks: readonly UploadCheck[]): AssetBulkUploadCheckResponseDto => ({
  results: checks.map(({ id, duplicateOf }) =>
    duplicateOf ? { id, assetId: duplicateOf, action: 'reject', reason: 'duplicate' } : { id, action: 'accept' },
  ),
});

/** v1.100's exif: v3's `rating` is not in it. */
export type ExifResponseDto = Omit<ExifInfo, 'rating'>;

/** ExifResponseDto: every key, null where unknown, in Immich's order. */
export const mapExif = (exif: Partial<ExifInfo>): ExifResponseDto => ({
  make: exif.make ?? null,
  model: exif.model ?? null,
  exifImageWidth: exif.exifImageWidth ?? null,
  exifImageHeight: exif.exifImageHeight ?? null,
  fileSizeInByte: exif.fileSizeInByte ?? null,
  orientation: exif.orientation ?? null,
  dateTimeOriginal: exif.dateTimeOriginal ?? null,
  modifyDate: exif.modifyDate ?? null,
  timeZone: exif.timeZone ?? null,
  lensModel: exif.lensModel ?? null,
  fNumber: exif.fNumber ?? null,
  focalLength: exif.focalLength ?? null,
  iso: exif.iso ?? null,
  exposureTime: exif.exposureTime ?? null,
  latitude: exif.latitude ?? null,
  longitude: exif.longitude ?? null,
  city: exif.city ?? null,
  state: exif.state ?? null,
  country: exif.country ?? null,
  description: exif.description ?? null,
  projectionType: exif.projectionType ?? null,
});

/** SHA-1 hex (stored) → base64 (28 characters, as Immich sends). */
export const checksumBase64 = (hex: string): string => Buffer.from(hex, 'hex').toString('base64');
