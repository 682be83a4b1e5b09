/**
 * Immich's metadata job names the place of the asset's position (docs/places.md), whatever its
 * previews; a failure is logged and the run goes on. Reverse geocoding switched off is handled by
 * places.service.ts itself (it still keeps the asset's position on the map).
 */
import { placeAssetForJob } from '../../places.service.ts';
import type { MediaStep } from '../step.ts';

export const placesStep: MediaStep = {
  name: 'places',
  run: async ({ asset, settings }) => {
    await placeAssetForJob(asset, settings.reverseGeocoding.enabled);
    return undefined;
  },
};
