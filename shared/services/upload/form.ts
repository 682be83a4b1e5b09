/**
 * The checks of an upload's form, in Immich's order, before anything is read or stored: the asset
 * file is there and not empty, the text fields are valid (the generation's reader: v1.100's
 * `CreateAssetDto`, v3's `AssetMediaCreateDto`), and an image of a type whose header can be read
 * is readable.
 */
import { Invalid } from '../../core/errors.ts';
import { assetTypeOf, extensionOf } from '../../domain/media-types.ts';
import { uploadFields } from '../../domain/upload-files.ts';
import { dimensionsOf } from '../../media/metadata.ts';
import type { NewAssetFields, UploadedFile } from '../../model/upload.ts';

// Image formats whose header image-size reads: a file of one of these types that it cannot read is corrupt.
const checkedImageTypes = new Set([
  '.jpg',
  '.jpeg',
  '.jpe',
  '.png',
  '.gif',
  '.webp',
  '.bmp',
  '.tif',
  '.tiff',
  '.heic',
  '.heif',
  '.avif',
  '.jxl',
  '.psd',
]);

/** An image of a type whose header image-size reads, and which it cannot read, is corrupt: a 400. `data` may be the file's start. */
export const checkImageReadable = (fileName: string, data: Buffer): void => {
  if (assetTypeOf(fileName) === 'IMAGE' && checkedImageTypes.has(extensionOf(fileName)) && !dimensionsOf(data)) {
    throw new Invalid(`Corrupt or unreadable image file ${fileName}`);
  }
};

export interface UploadInput {
  /** The multipart form's text fields, as sent. */
  fields: Record<string, string>;
  files: Partial<Record<(typeof uploadFields)[keyof typeof uploadFields], UploadedFile>>;
  /** The generation's reading of the text fields (v1.100's in shared/dto/v1/asset.ts, v3's beside it): throws `Invalid`. */
  readFields: (fields: Record<string, string>) => NewAssetFields;
}

/** The asset file is there and not empty (Immich's first check of an upload's form). */
export const requireAssetFile = (size: number | undefined): void => {
  if (!size) throw new Invalid(`Field(s) ${uploadFields.asset} should not be empty`);
};

/** The form's asset file and text fields, checked: a missing or empty file, then the fields. */
export const validateUploadForm = (
  form: UploadInput,
): { file: UploadedFile; dto: NewAssetFields; sidecar: UploadedFile | undefined; livePhoto: UploadedFile | undefined } => {
  const file = form.files[uploadFields.asset];
  requireAssetFile(file?.data.length);
  const dto = form.readFields(form.fields);
  // An iPhone live photo's video sent beside it (Immich's livePhotoData).
  const livePhoto = form.files[uploadFields.livePhoto]?.data.length ? form.files[uploadFields.livePhoto] : undefined;
  return { file: file as UploadedFile, dto, sidecar: form.files[uploadFields.sidecar], livePhoto };
};
