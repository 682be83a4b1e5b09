/**
 * A metadata search's filters, from either generation (v1.100's `MetadataSearchDto`, with which
 * GET /assets and POST /search/metadata are read; v3's): absent and null leave a filter off.
 */
import type { AssetRecord, AssetVisibility } from './asset.ts';
import type { FilterTree } from './search-filter.ts';

type Maybe<T> = T | null | undefined;

/** What a search reads when it names no visibility (v1.100's defaults): neither the archive nor the locked folder. */
export const defaultSearchVisibilities: readonly AssetVisibility[] = ['timeline', 'hidden'];

export interface SearchFilters {
  id?: Maybe<string>;
  libraryId?: Maybe<string>;
  deviceAssetId?: Maybe<string>;
  deviceId?: Maybe<string>;
  type?: Maybe<'IMAGE' | 'VIDEO' | 'AUDIO' | 'OTHER'>;
  /**
   * The visibilities an asset may have to match (absent: `defaultSearchVisibilities`). Each
   * generation's DTO reads its flags into it: v3's `visibility` one of them, or the timeline and
   * the archive; v1.100's `isVisible` (hidden or not), `isArchived` (the archive or not) and
   * `withArchived` (the archive too, when `isArchived` is absent). The locked folder only by name.
   */
  visibilities?: readonly AssetVisibility[] | undefined;
  isEncoded?: Maybe<boolean>;
  isExternal?: Maybe<boolean>;
  isFavorite?: Maybe<boolean>;
  isMotion?: Maybe<boolean>;
  isOffline?: Maybe<boolean>;
  isReadOnly?: Maybe<boolean>;
  withDeleted?: Maybe<boolean>;
  withStacked?: Maybe<boolean>;
  withExif?: Maybe<boolean>;
  withPeople?: Maybe<boolean>;
  isNotInAlbum?: Maybe<boolean>;
  createdBefore?: Maybe<string>;
  createdAfter?: Maybe<string>;
  updatedBefore?: Maybe<string>;
  updatedAfter?: Maybe<string>;
  trashedBefore?: Maybe<string>;
  trashedAfter?: Maybe<string>;
  takenBefore?: Maybe<string>;
  takenAfter?: Maybe<string>;
  city?: Maybe<string>;
  state?: Maybe<string>;
  country?: Maybe<string>;
  make?: Maybe<string>;
  model?: Maybe<string>;
  lensModel?: Maybe<string>;
  checksum?: Maybe<string>;
  originalFileName?: Maybe<string>;
  originalPath?: Maybe<string>;
  resizePath?: Maybe<string>;
  webpPath?: Maybe<string>;
  encodedVideoPath?: Maybe<string>;
  personIds?: Maybe<string[]>;
  order?: Maybe<'asc' | 'desc'>;
  page?: Maybe<number>;
  size?: Maybe<number>;
  /** v3's stars: -1, 1–5, or null for none. */
  rating?: number | null | undefined;
  /** v3's description filter: a part of it, case- and accent-insensitive. */
  description?: string | undefined;
  /** v3's albumIds: assets in every one of these albums (the service resolves them into `amongAssets`). */
  albumIds?: readonly string[] | undefined;
  /** v3's tagIds: assets with every one of these tags, or one below each (resolved into `amongAssets`). */
  tagIds?: readonly string[] | undefined;
  /** The only assets that can match: those the albums and tags asked for have in common. */
  amongAssets?: ReadonlySet<string> | undefined;
  /** Nothing can match. */
  matchesNothing?: boolean | undefined;
  /**
   * v3's OCR text (`ocr`, or 3.2's `filter.ocr.matches`): assets whose text has every word of it
   * (docs/immich-compatibility.md, "OCR"); the search resolves it per owner into `amongAssets`.
   */
  ocr?: string | undefined;
  /** 3.2's filter tree (`filter`), as read; the search resolves it into `treeMatch` (docs/search.md, "The filter tree"). */
  tree?: FilterTree | undefined;
  /** The tree as a test on an asset, its albums', tags' and texts' assets read. */
  treeMatch?: ((asset: AssetRecord) => boolean) | undefined;
}

/** GET /search (v1.100's deprecated text search): the words (`q` or `query`), the smart flags it refuses, at most `size`. */
export interface TextSearch {
  q?: Maybe<string>;
  query?: Maybe<string>;
  smart?: Maybe<boolean>;
  clip?: Maybe<boolean>;
  size?: Maybe<number>;
}

/** What GET /search/suggestions lists: places, cameras or lenses. */
export type SuggestionType = 'country' | 'state' | 'city' | 'camera-make' | 'camera-model' | 'camera-lens-model';

/** GET /search/suggestions: the kind listed, the place or camera it is narrowed to, and whether `null` ends the list. */
export interface SuggestionRequest {
  type: SuggestionType;
  country?: string | null | undefined;
  state?: string | null | undefined;
  make?: string | null | undefined;
  model?: string | null | undefined;
  lensModel?: string | null | undefined;
  includeNull?: boolean | null | undefined;
}
