import type { SyncRequestType } from '../../model/sync.ts';
import { albumTypes } from './albums.ts';
import { ownAssetTypes } from './assets.ts';
import { libraryTypes } from './library.ts';
import type { TypeSyncs } from './mechanics.ts';
import { sharedAssetTypes } from './shared-assets.ts';
import { userTypes } from './users.ts';

/**
 * The sync stream's types (docs/immich-compatibility.md, "The sync stream"): what each requested
 * type sends, by module. A new type is a row here (and in `order`) and its module's function.
 */
export const typeSyncs: TypeSyncs = { ...userTypes, ...ownAssetTypes, ...sharedAssetTypes, ...albumTypes, ...libraryTypes };

/** The request types replaced by a newer one: asking for one is refused, naming the other. */
export const deprecated: Partial<Record<SyncRequestType, SyncRequestType>> = {
  AssetsV1: 'AssetsV2',
  PartnerAssetsV1: 'PartnerAssetsV2',
  AlbumAssetsV1: 'AlbumAssetsV2',
  AssetFacesV1: 'AssetFacesV2',
};

/** Immich's order of the types in a stream. */
export const order: readonly SyncRequestType[] = [
  'AuthUsersV1',
  'UsersV1',
  'PartnersV1',
  'AssetsV1',
  'AssetsV2',
  'StacksV1',
  'PartnerAssetsV1',
  'PartnerAssetsV2',
  'PartnerStacksV1',
  'AlbumAssetsV1',
  'AlbumAssetsV2',
  'AlbumsV1',
  'AlbumsV2',
  'AlbumUsersV1',
  'AlbumToAssetsV1',
  'AssetExifsV1',
  'AlbumAssetExifsV1',
  'AssetOcrV1',
  'PartnerAssetExifsV1',
  'MemoriesV1',
  'MemoryToAssetsV1',
  'PeopleV1',
  'AssetFacesV1',
  'AssetFacesV2',
  'UserMetadataV1',
  'AssetMetadataV1',
  'AssetEditsV1',
];
