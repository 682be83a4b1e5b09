/**
 * Immich v1.100's map and places requests and answers (`MapMarkerDto`, `MapThemeDto`,
 * `SearchPlacesDto`; `MapMarkerResponseDto`, `PlacesResponseDto`): docs/places.md.
 */
import * as v from 'valibot';
import { limits } from '../../model/limits.ts';
import type { MarkerFilters, Place } from '../../model/place.ts';
import { absentOr, as, booleanish, dto, isOneOf, nonEmptyString } from '../common.ts';
import { queryDate } from './search.ts';

/**
 * GET /asset/map-marker query, read into the model's filters: `isArchived` absent the timeline and
 * the archive, true the archive (the caller's own only), false the timeline.
 */
export const MapMarkerDto = v.pipe(
  dto({
    isArchived: absentOr(booleanish()),
    isFavorite: absentOr(booleanish()),
    fileCreatedAfter: absentOr(queryDate('fileCreatedAfter')),
    fileCreatedBefore: absentOr(queryDate('fileCreatedBefore')),
    withPartners: absentOr(booleanish()),
  }),
  v.transform(
    ({ isArchived, ...filters }): MarkerFilters => ({
      ...filters,
      visibilities: isArchived === undefined ? ['timeline', 'archive'] : isArchived ? ['archive'] : ['timeline'],
    }),
  ),
);

const themes = ['light', 'dark'] as const;

/** GET /system-config/map/style.json query: `@IsEnum(MapTheme)`. */
export const MapThemeDto = dto({ theme: v.pipe(v.unknown(), isOneOf(themes), as<(typeof themes)[number]>()) });

/** GET /search/places query: `@IsString() @IsNotEmpty()`. */
export const SearchPlacesDto = dto({ name: nonEmptyString(limits.keyValue) });

export interface PlacesResponseDto {
  name: string;
  latitude: number;
  longitude: number;
  admin1name: string | null;
  admin2name: string | null;
}

/** Immich's `mapPlaces` (both generations). */
export const mapPlace = (place: Place): PlacesResponseDto => ({
  name: place.name,
  latitude: place.latitude,
  longitude: place.longitude,
  admin1name: place.admin1,
  admin2name: place.admin2,
});
