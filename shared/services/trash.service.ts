import type { Auth } from '../auth/authenticate.ts';
import { deleteAsset, getAssets, getAssetWithFaces, updateAsset } from '../db/asset.repository.ts';
import { BadRequestException } from '../http/errors.ts';
import { originalsStore } from '../storage/originals.ts';

/**
 * DELETE /asset: every id must be the caller's (else 400 and nothing changes). Without `force`
 * the assets move to the trash (and out of person assets, albums and shared links); with it they
 * are deleted for good, originals included.
 */
export const deleteAssets = async (auth: Auth, ids: readonly string[], force: boolean): Promise<void> => {
  const unique = [...new Set(ids)];
  const assets = await getAssets(unique);
  if (assets.length !== unique.length || assets.some((asset) => asset.ownerId !== auth.user.id)) {
    throw new BadRequestException('Not found or no asset.delete access');
  }
  const now = new Date().toISOString();
  for (const asset of assets) {
    const found = await getAssetWithFaces(asset.id);
    if (!found) continue;
    if (!force) {
      if (found.asset.deletedAt === null) await updateAsset(found.asset, found.faces, { deletedAt: now });
      continue;
    }
    await deleteAsset(found.asset, found.faces);
    const store = await originalsStore();
    await store.delete([{ key: found.asset.originalPath }, ...(found.asset.sidecarPath ? [{ key: found.asset.sidecarPath }] : [])]);
  }
};
