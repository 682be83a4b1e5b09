import { getAssetWithFaces } from '../db/asset.repository.ts';
import { getPeople } from '../db/person.repository.ts';
import { listAssetTags } from '../db/tag.repository.ts';
import { getUser } from '../db/user.repository.ts';
import type { AssetDetail } from '../model/asset.ts';

/**
 * An asset as its owner sees it in Immich's realtime events (`on_upload_success`,
 * `on_asset_update`): with its owner, people and tags, as Immich loads "all relations but stacks".
 * The loader an event carries (shared/model/realtime.ts): it runs only when the owner is connected.
 */
export const ownerDetail = async (assetId: string): Promise<AssetDetail | undefined> => {
  const found = await getAssetWithFaces(assetId);
  if (!found) return undefined;
  const { asset, faces } = found;
  const [owner, people, tags] = await Promise.all([
    getUser(asset.ownerId),
    faces.length > 0
      ? getPeople(
          asset.ownerId,
          faces.map((face) => face.personId),
        )
      : Promise.resolve([]),
    listAssetTags(asset.ownerId, asset.id),
  ]);
  return { asset, owner, faces, people, tags };
};
