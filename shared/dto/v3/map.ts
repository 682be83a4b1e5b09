/** Immich v3.2's map requests (`MapMarkerDto`, `MapReverseGeocodeDto`): docs/places.md. */
import * as v from 'valibot';
import type { MarkerFilters } from '../../model/place.ts';
import { isoDateTime, object, stringToBool } from './common.ts';

/** GET /map/markers query, read into the model's filters: `isArchived` true the timeline and the caller's archive, else the timeline. */
export const MapMarkerQuery = v.pipe(
  object({
    isArchived: v.optional(stringToBool),
    isFavorite: v.optional(stringToBool),
    fileCreatedAfter: v.optional(isoDateTime),
    fileCreatedBefore: v.optional(isoDateTime),
    withPartners: v.optional(stringToBool),
    withSharedAlbums: v.optional(stringToBool),
  }),
  v.transform(
    ({ isArchived, ...filters }): MarkerFilters => ({
      ...filters,
      visibilities: isArchived === true ? ['timeline', 'archive'] : ['timeline'],
    }),
  ),
);

/**
 * zod's `z.coerce.number()` within bounds, with zod's messages (Immich's e2e cases check them): a
 * number, or text that is one; anything else (absent too) is NaN to zod.
 */
const coordinate = (bound: number) =>
  v.pipe(
    // Absent is '' (so the checks run: zod coerces it to NaN).
    v.optional(v.unknown(), ''),
    v.transform((x) => (typeof x === 'number' ? x : typeof x === 'string' && x.trim() !== '' ? Number(x) : Number.NaN)),
    v.check((x) => !Number.isNaN(x), 'Invalid input: expected number, received NaN'),
    // One message a value, as zod's (NaN fails only the first check).
    v.check((x) => Number.isNaN(x) || x <= bound, `Too big: expected number to be <=${bound}`),
    v.check((x) => Number.isNaN(x) || x >= -bound, `Too small: expected number to be >=-${bound}`),
  );

/** GET /map/reverse-geocode query. */
export const ReverseGeocodeQuery = object({ lat: coordinate(90), lon: coordinate(180) });

/** `MapReverseGeocodeResponseDto`. */
export interface MapReverseGeocodeResponseDto {
  city: string | null;
  state: string | null;
  country: string | null;
}
