/**
 * The thumbnails of the people whose feature face is on this asset (a new person's is the asset
 * they were first seen on), cropped from the preview just made.
 */
import * as personRepo from '../../../db/person.repository.ts';
import { peopleOfFaces } from '../../../model/asset.ts';
import type { PersonRecord } from '../../../model/person.ts';
import { cropPersonThumbnails } from '../person-thumbnails.ts';
import type { MediaStep } from '../step.ts';

export const personThumbnailsStep: MediaStep = {
  name: 'person-thumbnails',
  skip: (_settings, { faces }) => faces.length === 0,
  run: async ({ asset, faces, preview, settings }) => {
    if (!preview) return undefined;
    const people = faces.length === 0 ? [] : await personRepo.getMany(asset.ownerId, peopleOfFaces(faces));
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

/**
 * The person thumbnail job's step (after ensure-preview): one person's thumbnail, cropped from the
 * preview of the asset their feature face is on; `unsupported` when none could be made.
 */
export const personThumbnailStep = (person: PersonRecord): MediaStep => ({
  name: 'person-thumbnail',
  run: async ({ asset, faces, preview, settings }) => {
    if (!preview) return 'unsupported';
    const made = await cropPersonThumbnails(asset, faces, [person], preview, settings.thumbnail.quality);
    return made > 0 ? undefined : 'unsupported';
  },
});
