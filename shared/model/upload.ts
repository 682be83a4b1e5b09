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
