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
