import type { AlbumRecord } from './album.ts';
import type { AssetRecord, FaceRecord, PhotoEdit } from './asset.ts';
import type { MemoryRecord } from './memory.ts';
import type { PersonRecord } from './person.ts';
import type { UserRecord } from './user.ts';

/** What the app may ask the stream for (Immich v3.2's `SyncRequestType`). */
export const syncRequestTypes = [
  'AlbumsV1',
  'AlbumsV2',
  'AlbumUsersV1',
  'AlbumToAssetsV1',
  'AlbumAssetsV1',
  'AlbumAssetsV2',
  'AlbumAssetExifsV1',
  'AssetsV1',
  'AssetsV2',
  'AssetExifsV1',
  'AssetEditsV1',
  'AssetMetadataV1',
  'AssetOcrV1',
  'AuthUsersV1',
  'MemoriesV1',
  'MemoryToAssetsV1',
  'PartnersV1',
  'PartnerAssetsV1',
  'PartnerAssetsV2',
  'PartnerAssetExifsV1',
  'PartnerStacksV1',
  'StacksV1',
  'UsersV1',
  'PeopleV1',
  'AssetFacesV1',
  'AssetFacesV2',
  'UserMetadataV1',
] as const;
export type SyncRequestType = (typeof syncRequestTypes)[number];

/** What a line of the stream may be (Immich v3.2's `SyncEntityType`): acks name these. */
export const syncEntityTypes = [
  'AuthUserV1',
  'UserV1',
  'UserDeleteV1',
  'AssetV1',
  'AssetV2',
  'AssetDeleteV1',
  'AssetExifV1',
  'AssetEditV1',
  'AssetEditDeleteV1',
  'AssetMetadataV1',
  'AssetMetadataDeleteV1',
  'AssetOcrV1',
  'AssetOcrDeleteV1',
  'PartnerV1',
  'PartnerDeleteV1',
  'PartnerAssetV1',
  'PartnerAssetV2',
  'PartnerAssetBackfillV1',
  'PartnerAssetBackfillV2',
  'PartnerAssetDeleteV1',
  'PartnerAssetExifV1',
  'PartnerAssetExifBackfillV1',
  'PartnerStackBackfillV1',
  'PartnerStackDeleteV1',
  'PartnerStackV1',
  'AlbumV1',
  'AlbumV2',
  'AlbumDeleteV1',
  'AlbumUserV1',
  'AlbumUserBackfillV1',
  'AlbumUserDeleteV1',
  'AlbumAssetCreateV1',
  'AlbumAssetCreateV2',
  'AlbumAssetUpdateV1',
  'AlbumAssetUpdateV2',
  'AlbumAssetBackfillV1',
  'AlbumAssetBackfillV2',
  'AlbumAssetExifCreateV1',
  'AlbumAssetExifUpdateV1',
  'AlbumAssetExifBackfillV1',
  'AlbumToAssetV1',
  'AlbumToAssetDeleteV1',
  'AlbumToAssetBackfillV1',
  'MemoryV1',
  'MemoryDeleteV1',
  'MemoryToAssetV1',
  'MemoryToAssetDeleteV1',
  'StackV1',
  'StackDeleteV1',
  'PersonV1',
  'PersonDeleteV1',
  'AssetFaceV1',
  'AssetFaceV2',
  'AssetFaceDeleteV1',
  'UserMetadataV1',
  'UserMetadataDeleteV1',
  'SyncAckV1',
  'SyncResetV1',
  'SyncCompleteV1',
] as const;
export type SyncEntityType = (typeof syncEntityTypes)[number];

/**
 * What the sync stream sends in one line (shared/services/sync/stream.service.ts): its type (one
 * of Immich's `SyncEntityType` names), its ack, and the record it is about; the generation's
 * mapper gives it its wire shape (shared/dto/v3/sync.response.ts).
 */
export interface SyncEvent {
  type: string;
  ack: string;
  data:
    | { kind: 'asset'; asset: AssetRecord; favorite: boolean }
    | { kind: 'exif'; asset: AssetRecord }
    | { kind: 'user'; user: UserRecord }
    | { kind: 'authUser'; user: UserRecord }
    | { kind: 'album'; album: AlbumRecord }
    | { kind: 'person'; person: PersonRecord }
    | { kind: 'face'; face: FaceRecord }
    | { kind: 'memory'; memory: MemoryRecord }
    | { kind: 'edit'; assetId: string; edit: PhotoEdit; sequence: number }
    /** Ids and flags only (deletions, partners, album users and entries, user metadata, acks). */
    | { kind: 'fields'; fields: Record<string, unknown> };
}

/**
 * The query of v1.100's asset list the mobile app syncs from (GET /asset): its filters, page and
 * the instants (ISO strings) of a delta or a chunked full sync (shared/services/sync/sync.service.ts).
 */
export interface AssetListQuery {
  isFavorite?: boolean | null | undefined;
  /** The timeline or the archive only (v1.100's `isArchived` false or true, read by its DTO); absent both. */
  visibility?: 'timeline' | 'archive' | undefined;
  skip?: number | null | undefined;
  take?: number | null | undefined;
  userId?: string | null | undefined;
  updatedAfter?: string | null | undefined;
  updatedBefore?: string | null | undefined;
}
