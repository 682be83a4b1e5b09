/**
 * The thumbnails of the people whose feature face is on this asset (a new person's is the asset
 * they were first seen on), cropped from the preview just made.
 */
import { getPeople } from '../../../db/person.repository.ts';
import { peopleOfFaces } from '../../../model/asset.ts';
import { cropPersonThumbnails } from '../person-thumbnails.ts';
import type { MediaStep } from '../step.ts';

export const personThumbnailsStep: MediaStep = {
  name: 'person-thumbnails',
  skip: (_settings, { faces }) => faces.length === 0,
  run: async ({ asset, faces, preview, settings }) => {
    if (!preview) return undefined;
    const people = faces.length === 0 ? [] : await getPeople(asset.ownerId, peopleOfFaces(faces));
    await cropPersonThumbnails(
      asset,
      faces,
      people.filter((person) => person.faceAssetId === asset.id),
      preview,
      settings.thumbnail.quality,
    );
    return undefined;
  },
};
