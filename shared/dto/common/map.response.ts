/** A map marker as both generations answer it: Immich's `MapMarkerResponseDto` (docs/places.md). */
import type { MapMarker } from '../../model/place.ts';

export type MapMarkerResponseDto = MapMarker;
