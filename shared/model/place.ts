/** Places (docs/places.md): what reverse geocoding, the place search and the map answer. */

/** A populated place of the reverse-geocoding index (GeoNames). */
export interface Place {
  name: string;
  latitude: number;
  longitude: number;
  /** English country name, or null when i18n-iso-countries has none for its code. */
  country: string | null;
  countryCode: string;
  admin1: string | null;
  admin2: string | null;
}

/** What reverse geocoding writes on an asset: Immich's `ReverseGeocodeResult`. */
export interface PlaceNames {
  city: string | null;
  state: string | null;
  country: string | null;
}

/** A map marker: Immich's `MapMarkerResponseDto`. */
export interface MapMarker {
  id: string;
  lat: number;
  lon: number;
  city: string | null;
  state: string | null;
  country: string | null;
}

/**
 * Which markers a map asks for (GET /asset/map-marker, GET /map/markers). `visibilities`: the
 * caller's own assets shown from these; another user's (a partner's, a shared album's) only from
 * their timeline, and only when the timeline is one of these. Each generation's DTO reads its
 * `isArchived` into it: v1.100's absent both, true the archive (and no one else's), false the
 * timeline; v3's true both, else the timeline.
 */
export interface MarkerFilters {
  visibilities: readonly ('timeline' | 'archive')[];
  isFavorite?: boolean | undefined;
  fileCreatedAfter?: string | undefined;
  fileCreatedBefore?: string | undefined;
  withPartners?: boolean | undefined;
  withSharedAlbums?: boolean | undefined;
}
