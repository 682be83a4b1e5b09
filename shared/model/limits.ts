/**
 * The limits a client can meet, in one place (docs/api.md, "Limits", lists them). Immich (PostgreSQL)
 * has few; here a DynamoDB item holds at most 400 KB and an index key at most 2,048 bytes, so
 * every free-text field has a maximum, checked where the value comes in with a clear 400.
 */
export const limits = {
  /** Names: albums, people, users, API keys. */
  name: 1_000,
  /** Descriptions: albums, assets, shared links. */
  description: 10_000,
  /** Passwords (login, sign-up, change, shared links): argon2id reads every byte of one. */
  password: 1_000,
  /** A value that becomes part of an index key (EXIF filters, device ids, paths): 4 bytes a character at worst, under 2,048 bytes. */
  keyValue: 500,
  /** A product key's activation key: a base64 RSA signature (684 characters at 4,096 bits). */
  activationKey: 2_048,
  /** A checksum: SHA-1 is 40 hex or 28 base64 characters. */
  checksum: 64,
  /** The id a client gives each file of a bulk upload check (the CLI sends its path). */
  clientId: 4_096,
  /** Strings of the system configuration (custom CSS, templates, URLs…), each. */
  configText: 20_000,
  /** An XMP sidecar, in bytes. */
  sidecarBytes: 256 * 1024,
  /**
   * A file sent through an upload session (docs/large-uploads.md), in bytes: its completion reads
   * the whole object once to check its SHA-1, within API Gateway's 30 s.
   */
  sessionBytes: 4 * 1024 ** 3,
  /** Parts of one upload session (S3 allows 10,000; 1,000 keep the session one small item). */
  sessionParts: 1_000,
  /** Upload sessions one user may have open at once (each holds its declared size of the quota). */
  openUploadSessions: 10,
  /** S3's smallest part (but the last). */
  minPartBytes: 5 * 1024 * 1024,
  /** S3's largest part. */
  maxPartBytes: 5 * 1024 ** 3,
  /**
   * Assets in one archive (POST /download/archive; each counted once). Immich's clients ask for
   * archives of at most `archiveSize` (4 GiB) each, as /download/info splits them.
   */
  archiveAssets: 10_000,
  /**
   * Days of one calendar heatmap (GET /users/me/calendar-heatmap, GET /admin/users/:id/calendar-heatmap):
   * its answer has a day each, so its size is this bound, not the range asked (Immich has none:
   * 0001-01-01 to 9999-12-31 was 117 MB). Ten years; the web app asks for 52 weeks.
   */
  heatmapDays: 3_660,
  /** People merged into one in one request (POST /person/:id/merge). */
  mergePeople: 1_000,
  /** Assets whose faces are reassigned in one request (PUT /person/:id/reassign): a transaction each. */
  reassignFaces: 1_000,
  /**
   * Asset ids in one request of a bulk route (docs/api.md, "Limits"): update, delete, restore, add
   * to or remove from albums, shared links, tags and memories, stack, run jobs, download info. The
   * web app's selection of a whole year (5,000–10,000 photos) fits; access is checked by
   * BatchGetItem, 100 ids a call, a few calls in flight (shared/db/batch.ts).
   */
  bulkAssets: 10_000,
  /**
   * Asset ids added to or removed from one album in one request (PUT and DELETE /album/:id/assets,
   * /albums/:id/assets): `@immich/cli`'s `upload --album` sends up to 1,000 × its concurrency, at
   * most 65,000, a request; entries are written 50 a transaction.
   */
  albumAssets: 65_000,
  /**
   * Ids of albums, tags, stacks, people, users or notifications one write request names (PUT
   * /albums/assets, PUT /tags/assets, DELETE /stacks, PUT /people, album users…): each is read
   * and written on its own, so fewer than assets.
   */
  bulkGroups: 1_000,
  /**
   * Albums, people or tags one request filters by (a search's `albumIds`, `personIds`, `tagIds`:
   * each one's assets are read to intersect them) or adds every asset to (PUT /albums/assets'
   * `albumIds`, PUT /tags/assets' `tagIds`: up to this many times `bulkAssets` writes). The apps
   * send a handful.
   */
  bulkTargets: 100,
  /**
   * An asset metadata key (docs/immich-compatibility.md, "Asset metadata"): it is the item's sort
   * key (at most 1,024 bytes), 3 bytes a UTF-16 unit at worst.
   */
  metadataKey: 250,
  /**
   * An asset metadata value, in bytes of its JSON: a transaction's 100 writes stay under DynamoDB's
   * 4 MB a transaction (the iOS app's cloud id is about 250 bytes).
   */
  metadataValueBytes: 32 * 1024,
  /**
   * Items of one bulk metadata request (PUT and DELETE /assets/metadata): the iOS app's page, so
   * its work stays bounded (400 transactions).
   */
  metadataBulkItems: 20_000,
  /** Metadata items of one upload (POST /assets): written in the upload's one transaction (the app sends one). */
  uploadMetadataItems: 20,
  /** A file's own metadata strings are cut, not refused: a photo is never refused for its EXIF. */
  exifText: 500,
  /**
   * Tags one file's keywords make (each level of a keyword's path is a tag, docs/immich-compatibility.md,
   * "Tags"): Lightroom's and digiKam's keywords are dozens; keywords past this are not read.
   */
  fileTags: 200,
} as const;

/** The first `max` characters (code points, so no character is cut in half). */
export const truncate = (text: string, max: number): string => {
  if (text.length <= max) return text;
  return Array.from(text).slice(0, max).join('');
};
