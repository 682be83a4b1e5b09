/**
 * The rules of an upload that need no file byte: which fields carry files, which files each
 * accepts, and where an original is kept. Shared by `POST /asset/upload` and the upload sessions
 * (docs/large-uploads.md), kept apart from the metadata readers so the session routes that never
 * read a file do not bundle them (docs/benchmarks.md).
 */
import { Invalid } from '../core/errors.ts';
import { limits } from '../model/limits.ts';
import { assetTypeOf, extensionOf, mediaTypes } from './media-types.ts';

/** The file fields of POST /asset/upload (Immich's `UploadFieldName`). */
export const uploadFields = { asset: 'assetData', livePhoto: 'livePhotoData', sidecar: 'sidecarData' } as const;

/** An XMP sidecar is a few KB (tens with many face regions or an edit history): a larger one is refused before it is parsed. */
export const uploadFieldLimits = { [uploadFields.sidecar]: limits.sidecarBytes } as const;

/** Immich's upload filter, run as each file starts: assets must be images or videos, sidecars `.xmp`, live-photo parts videos. */
export const acceptUploadFile = (field: string, fileName: string): void => {
  const extension = extensionOf(fileName);
  const ok =
    field === uploadFields.sidecar
      ? mediaTypes.sidecar.includes(extension)
      : field === uploadFields.livePhoto
        ? mediaTypes.video.includes(extension)
        : assetTypeOf(fileName) !== undefined;
  if (!ok) throw new Invalid(`Unsupported file type ${fileName}`);
};

/** `upload/<ownerId>/<ab>/<cd>/<assetId><ext>`: Immich's upload folder layout, ext reduced to safe characters. */
export const originalKey = (ownerId: string, assetId: string, fileName: string): string => {
  const extension = extensionOf(fileName).replace(/[^a-z0-9.]/g, '');
  return `upload/${ownerId}/${assetId.slice(0, 2)}/${assetId.slice(2, 4)}/${assetId}${extension}`;
};
