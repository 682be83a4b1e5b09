import * as assetRepo from '../db/asset.repository.ts';
import * as personRepo from '../db/person.repository.ts';
import * as tagRepo from '../db/tag.repository.ts';
import * as userRepo from '../db/user.repository.ts';
import { type AssetDetail, type AssetRecord, type FaceRecord, peopleOfFaces } from '../model/asset.ts';
import type { PersonRecord } from '../model/person.ts';

type Found = { asset: AssetRecord; faces: readonly FaceRecord[] };

export interface DetailOptions {
  /** With the owner's tags on it (the owner's view; Immich loads no tags for anyone else). */
  tags: boolean;
  /** The people of its faces, already read: not read again (one asset's). */
  people?: readonly PersonRecord[] | undefined;
}

const personIdsOf = ({ faces }: Found): string[] => peopleOfFaces(faces);

/**
 * Assets with what Immich's detailed view of an asset loads with it ("all relations but stacks"):
 * its owner, the people of its faces and, with `tags`, the owner's tags on it. The one helper of
 * every such view: `GET /assets/:id`, the answer of `PUT /assets/:id`, and the assets Immich's
 * realtime events carry, which a publication loads for many assets at once
 * (docs/immich-compatibility.md, "Realtime"). The owners are read once each, in one BatchGetItem
 * (as they are now, as a GetItem reads them), each owner's people in one, the tags one Query an
 * asset (for many assets of an owner without any tag, one Query in all).
 */
const detailsOf = async (found: readonly Found[], options: DetailOptions): Promise<AssetDetail[]> => {
  const byOwner = [...Map.groupBy(found, ({ asset }) => asset.ownerId)];
  const [owners, people, tags] = await Promise.all([
    userRepo.getMany(
      byOwner.map(([ownerId]) => ownerId),
      { consistent: true },
    ),
    options.people ??
      Promise.all(byOwner.map(([ownerId, assets]) => personRepo.getMany(ownerId, [...new Set(assets.flatMap(personIdsOf))]))).then((each) =>
        each.flat(),
      ),
    options.tags
      ? Promise.all(
          byOwner.map(([ownerId, assets]) =>
            tagRepo.listAssetsTags(
              ownerId,
              assets.map(({ asset }) => asset.id),
            ),
          ),
        )
      : Promise.resolve([]),
  ]);
  const ownerOf = new Map(owners.map((owner) => [owner.id, owner]));
  const personOf = new Map(people.map((person) => [`${person.ownerId}/${person.id}`, person]));
  const tagsOf = new Map(tags.flatMap((each) => [...each]));
  return found.map((each) => ({
    asset: each.asset,
    owner: ownerOf.get(each.asset.ownerId),
    faces: each.faces,
    people: options.people ?? personIdsOf(each).flatMap((id) => personOf.get(`${each.asset.ownerId}/${id}`) ?? []),
    ...(options.tags ? { tags: tagsOf.get(each.asset.id) ?? [] } : {}),
  }));
};

/** One asset's detail (`detailsOf`). */
export const detailOf = async (asset: AssetRecord, faces: readonly FaceRecord[], options: DetailOptions): Promise<AssetDetail> => {
  const [detail] = await detailsOf([{ asset, faces }], options);
  if (!detail) throw new Error(`No detail of asset ${asset.id}`);
  return detail;
};

/**
 * The assets as their owner sees them, as they are now: what Immich's `on_upload_success` and
 * `on_asset_update` carry, and the loader those events carry (shared/model/realtime.ts). A
 * publication runs it only when the owner is connected, once for all of its events: the assets
 * and their faces by key (BatchGetItem), then `detailsOf`. Assets gone meanwhile are left out.
 */
export const ownerDetails = async (assetIds: readonly string[]): Promise<ReadonlyMap<string, AssetDetail>> =>
  new Map((await detailsOf(await assetRepo.getManyWithFaces(assetIds), { tags: true })).map((detail) => [detail.asset.id, detail]));

/** The assets as they are now (`AssetEditReadyV2` carries the asset and its edits): the loader of that event. */
export const currentAssets = async (assetIds: readonly string[]): Promise<ReadonlyMap<string, AssetRecord>> =>
  new Map((await assetRepo.getMany(assetIds, { consistent: true })).map((asset) => [asset.id, asset]));
