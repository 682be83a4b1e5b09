import * as v from 'valibot';
import type { AlbumView } from './album.ts';
import type { AssetRecord } from './asset.ts';
import { id, instant, nullable } from './fields.ts';
import { CredentialUserSchema } from './user.ts';

const sharedLinkTypes = ['ALBUM', 'INDIVIDUAL'] as const;
export type SharedLinkType = (typeof sharedLinkTypes)[number];

/** A shared link, under its creator. No secret in clear (docs/immich-compatibility.md, "Shared links"). */
export const SharedLinkRecordSchema = v.object({
  id: id(),
  userId: id(),
  type: v.picklist(sharedLinkTypes),
  albumId: nullable(id()),
  description: nullable(v.string()),
  /** argon2id of the link's password, or null for none. */
  passwordHash: nullable(v.string()),
  keyHash: v.string(),
  createdAt: instant(),
  expiresAt: nullable(instant()),
  allowUpload: v.boolean(),
  allowDownload: v.boolean(),
  showExif: v.boolean(),
  /** Immich v3's custom URL (`/s/<slug>`), unique among all links; absent on a link stored before slugs: none. */
  slug: nullable(v.string()),
});
export type SharedLinkRecord = v.InferOutput<typeof SharedLinkRecordSchema>;

/** What a visitor's key resolves to in one GetItem: the link, its creator, and its password. */
export const SharedLinkKeyRecordSchema = v.object({
  linkId: id(),
  ...CredentialUserSchema.entries,
  expiresAt: nullable(instant()),
  /** The link's password hash, kept in step with the link; absent from key items written before it was kept here. */
  passwordHash: v.optional(nullable(v.string())),
});
export type SharedLinkKeyRecord = v.InferOutput<typeof SharedLinkKeyRecordSchema>;

/** What a link's slug item holds: the link it names, and its key item's hash (what a visitor's request reads next). */
export const SharedLinkSlugRecordSchema = v.object({ linkId: id(), userId: id(), keyHash: v.string() });
export type SharedLinkSlugRecord = v.InferOutput<typeof SharedLinkSlugRecordSchema>;

/** What a link shows: its assets (own, then its album's), and its album with its owner and entries. */
export interface LinkContents {
  assets: AssetRecord[];
  album?: Omit<AlbumView, 'sharedUsers' | 'assets'>;
}

/** A link as a view shows it: the record, its key, its contents when read, the visitor's password tokens when earned. */
export interface SharedLinkShown {
  link: SharedLinkRecord;
  key: string;
  /**
   * What the answer's `password` says: null for a link without one, else a stand-in for it (only
   * its hash is stored), which an edit that sends it back keeps (docs/immich-compatibility.md, "Shared links").
   */
  password?: string | null;
  contents?: LinkContents | undefined;
  token?: string;
}

/** What an asset id of an INDIVIDUAL link's request came to. */
export interface AssetIdResult {
  assetId: string;
  success: boolean;
  error?: 'duplicate' | 'no_permission' | 'not_found';
}

type Maybe<T> = T | null | undefined;

/** The options both creating and editing a link may set, from either generation. */
interface LinkOptions {
  description?: Maybe<string>;
  password?: Maybe<string>;
  expiresAt?: Maybe<Date>;
  allowUpload?: Maybe<boolean>;
  allowDownload?: Maybe<boolean>;
  showMetadata?: Maybe<boolean>;
  /** v3's custom URL: `""` or null is none (on edit: absent keeps it, `""` or null removes it). */
  slug?: Maybe<string>;
}

/** What creating a link takes, for both generations. */
export interface SharedLinkCreate extends LinkOptions {
  type: SharedLinkType;
  assetIds?: Maybe<string[]>;
  albumId?: Maybe<string>;
}

/** What editing a link takes, for both generations (`changeExpiryTime` with no `expiresAt` removes the expiry). */
export interface SharedLinkEdit extends LinkOptions {
  changeExpiryTime?: Maybe<boolean>;
}
