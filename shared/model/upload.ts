import type { AssetVisibility } from './asset.ts';
import type { AssetMetadataEntry } from './asset-metadata.ts';

/** A file as a client sent it in a multipart upload. */
export interface UploadedFile {
  field: string;
  /** The client's file name, as sent (Immich keeps it as `originalFileName`). */
  fileName: string;
  mimeType: string;
  data: Buffer;
}

/** What an upload came to: the asset's id, and whether it was already there (a duplicate stores nothing). */
export interface UploadOutcome {
  id: string;
  duplicate: boolean;
}

/** A file a client asks about before uploading it: its id, and the owner's asset with the same checksum, if any. */
export interface UploadCheck {
  id: string;
  duplicateOf: string | undefined;
}

/**
 * An upload's own fields, from either generation's form (v1.100's `CreateAssetDto`, v3's
 * `AssetMediaCreateDto`), as the one model takes them.
 */
export interface NewAssetFields {
  /** The device's own id for the file and the device's (v1.100 requires them; v3's apps still send them). */
  deviceAssetId: string;
  deviceId: string;
  fileCreatedAt: Date;
  fileModifiedAt: Date;
  /** Milliseconds, the client's; a video's own container wins. */
  duration?: number | null | undefined;
  libraryId?: string | null | undefined;
  isFavorite?: boolean | null | undefined;
  visibility?: AssetVisibility | undefined;
  isOffline?: boolean | null | undefined;
  isReadOnly?: boolean | null | undefined;
  /** v3: the live photo's video, uploaded (hidden) before its photo. */
  livePhotoVideoId?: string | undefined;
  /** v3: the name to keep instead of the uploaded file's. */
  filename?: string | undefined;
  /** v3: metadata keys kept with the new asset (the iOS app's iCloud id), written with it. */
  metadata?: readonly AssetMetadataEntry[] | undefined;
}
