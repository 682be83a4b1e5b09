/**
 * Immich v3's photo editor (docs/immich-compatibility.md, "The photo editor"): an asset's crop,
 * rotation and mirror, kept with the asset; the original never changes. The media function makes
 * the edited files (shared/services/media/steps/edits.ts), which the thumbnail
 * and original routes answer when asked `edited=true`.
 */
import { randomUUID } from 'node:crypto';
import { requireAsset } from '../access/asset-access.ts';
import { Permission } from '../access/permission.ts';
import * as assetRepo from '../db/asset.repository.ts';
import { checkPhotoEdits } from '../domain/photo-edits.ts';
import type { PhotoEdit, PhotoEditRequest } from '../model/asset.ts';
import type { Auth } from '../model/user.ts';
import { queueMediaJobs } from '../storage/media-jobs.ts';

/** GET /assets/:id/edits: whoever may read the asset (Immich's asset.read). */
export const getPhotoEdits = async (auth: Auth, id: string): Promise<PhotoEdit[]> =>
  (await requireAsset(auth, Permission.AssetRead, id)).asset.edits;

/** PUT /assets/:id/edits: the owner's; the edits given replace those before, each with a new id. */
export const editPhoto = async (auth: Auth, id: string, requested: readonly PhotoEditRequest[]): Promise<PhotoEdit[]> => {
  const { asset } = await requireAsset(auth, Permission.AssetEditCreate, id);
  checkPhotoEdits(asset, requested);
  const edits = requested.map((edit) => ({ id: randomUUID(), ...edit }) as PhotoEdit);
  await assetRepo.setPhotoEdits(asset, edits);
  await queueMediaJobs([{ kind: 'asset-edits', assetId: asset.id }]);
  return edits;
};

/** DELETE /assets/:id/edits: the owner's; back to the original as it was. */
export const removePhotoEdits = async (auth: Auth, id: string): Promise<void> => {
  const { asset } = await requireAsset(auth, Permission.AssetEditDelete, id);
  await assetRepo.setPhotoEdits(asset, []);
  await queueMediaJobs([{ kind: 'asset-edits', assetId: asset.id }]);
};
