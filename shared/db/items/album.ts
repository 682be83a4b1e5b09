import { AlbumMemberSchema, AlbumRecordSchema, type AlbumSummary, AlbumUserSchema } from '../../model/album.ts';
import { type AssetRecord, statusOf } from '../../model/asset.ts';
import { codec } from '../codec.ts';
import * as indexKeys from '../index-keys.ts';
import * as keys from '../item-keys.ts';
import { type AlbumMarkers, markersOf } from './album-mark.ts';
import { upgradeStatus } from './legacy.ts';

export const albumCodec = codec('album', AlbumRecordSchema);
export const albumUserCodec = codec('albumUser', AlbumUserSchema);
export const albumMemberCodec = codec('albumAsset', AlbumMemberSchema, {}, upgradeStatus);

export const memberItem = (albumId: string, asset: AssetRecord, addedAt: string) => ({
  ...keys.albumAsset(albumId, asset.id),
  ...indexKeys.assetAlbums(asset.id, albumId),
  type: 'albumAsset',
  albumId,
  assetId: asset.id,
  // Whose asset it is: the album's summary item gathers its entries' owners (./album-mark.ts).
  assetOwnerId: asset.ownerId,
  addedAt,
  ...statusOf(asset),
});

/**
 * An album's summary item (docs/data-model.md, "Album summaries"): `contentId`, the change marker
 * every write of its entries or users moves in its own transaction, and the summary last computed
 * with the marker it was computed at (`summaryId`). A summary is current while the two are equal.
 */
export interface AlbumSummaryItem {
  contentId?: string;
  summaryId?: string;
  summary?: AlbumSummary;
  /** The sync stream's markers (./album-mark.ts). */
  markers?: AlbumMarkers;
}

export const readSummaryItem = (item: Record<string, unknown>): AlbumSummaryItem => ({
  markers: markersOf(item),
  ...(typeof item.contentId === 'string' ? { contentId: item.contentId } : {}),
  ...(typeof item.summaryId === 'string' ? { summaryId: item.summaryId } : {}),
  ...(item.summary && typeof item.summary === 'object' ? { summary: item.summary as AlbumSummary } : {}),
});

/** The summary, when it is current (computed at the album's latest change). */
export const currentSummary = (item: AlbumSummaryItem | undefined): AlbumSummary | undefined =>
  item?.summary && item.contentId !== undefined && item.summaryId === item.contentId ? item.summary : undefined;
