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
