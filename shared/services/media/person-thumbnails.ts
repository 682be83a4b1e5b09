/**
 * People's thumbnails, as Immich's person thumbnail job makes them: each cropped from the preview
 * of the asset their feature face is on. The steps and the jobs of shared/services/media/ use them.
 */
import { log } from '../../core/log.ts';
import * as personRepo from '../../db/person.repository.ts';
import { renderFaceCrop } from '../../media/images.ts';
import type { AssetRecord, FaceRecord } from '../../model/asset.ts';
import type { PersonRecord } from '../../model/person.ts';
import { raise } from '../../realtime/outbox.ts';
import { originalsStore } from '../../storage/originals.ts';
import type { Preview } from './step.ts';

/** `thumbs/<owner>/<ab>/<cd>/<personId>.jpeg`, as Immich keeps person thumbnails. */
const personThumbnailKey = (ownerId: string, personId: string): string =>
  `thumbs/${ownerId}/${personId.slice(0, 2)}/${personId.slice(2, 4)}/${personId}.jpeg`;

/** Crops each person's thumbnail from the asset's preview, as Immich's person job does; how many were made. */
export const cropPersonThumbnails = async (
  asset: AssetRecord,
  faces: readonly FaceRecord[],
  people: readonly PersonRecord[],
  preview: Preview,
  quality: number,
): Promise<number> => {
  const store = await originalsStore();
  let made = 0;
  for (const person of people) {
    const face = faces.find((each) => each.personId === person.id);
    if (!face || face.imageWidth <= 0 || face.imageHeight <= 0) continue;
    // Face boxes are in the pixels of the image the region was written for; the preview is smaller.
    // Kept on the image first, as Immich's `getCrop` does: a face's box can spill over its edges.
    const sx = preview.width / face.imageWidth;
    const sy = preview.height / face.imageHeight;
    const onX = (value: number) => Math.min(Math.max(value, 0), face.imageWidth) * sx;
    const onY = (value: number) => Math.min(Math.max(value, 0), face.imageHeight) * sy;
    const box = { x1: onX(face.boundingBoxX1), y1: onY(face.boundingBoxY1), x2: onX(face.boundingBoxX2), y2: onY(face.boundingBoxY2) };
    try {
      const key = personThumbnailKey(asset.ownerId, person.id);
      await store.put(key, await renderFaceCrop(preview.bytes, box, quality), 'image/jpeg');
      await personRepo.setThumbnail(person, key);
      // As Immich's person thumbnail job tells the owner's apps when it is done.
      raise({ kind: 'person-thumbnail', ownerId: asset.ownerId, personId: person.id });
      made++;
    } catch (error) {
      log.warn('No thumbnail for a person', { personId: person.id, assetId: asset.id, error: String(error) });
    }
  }
  return made;
};
