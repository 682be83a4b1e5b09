/**
 * The index attributes an item carries, built from the same partitions requests query; each its
 * own export (`import * as indexKeys`).
 */
import type { SearchableExifField } from '../model/asset.ts';
import { dateOrder } from './keys.ts';
import * as partitions from './partitions.ts';

/** A connection in the list of every connection (gsi1, by when it opened) and in its user's (gsi2). */
export const connection = (userId: string, connectedAt: string, connectionId: string) => ({
  gsi1pk: partitions.connections().value,
  gsi1sk: `${connectedAt}#${connectionId}`,
  gsi2pk: partitions.userConnections(userId).value,
  gsi2sk: connectionId,
});
export const users = (createdAt: string, userId: string) => ({ gsi1pk: partitions.users().value, gsi1sk: dateOrder(createdAt, userId) });
export const timeline = (ownerId: string, fileCreatedAt: string, assetId: string) => ({
  gsi1pk: partitions.timeline(ownerId).value,
  gsi1sk: dateOrder(fileCreatedAt, assetId),
});
export const assetsByUpdate = (ownerId: string, updatedAt: string, assetId: string) => ({
  gsi2pk: partitions.assetsByUpdate(ownerId).value,
  gsi2sk: dateOrder(updatedAt, assetId),
});
export const personFaces = (personId: string, fileCreatedAt: string, assetId: string, faceId: string) => ({
  gsi2pk: partitions.personFaces(personId).value,
  gsi2sk: `${dateOrder(fileCreatedAt, assetId)}#${faceId}`,
});
export const partnersSharedBy = (sharedById: string, sharedWithId: string) => ({
  gsi2pk: partitions.partnersSharedBy(sharedById).value,
  gsi2sk: sharedWithId,
});
export const albumsSharedWith = (userId: string, albumId: string) => ({
  gsi2pk: partitions.albumsSharedWith(userId).value,
  gsi2sk: albumId,
});
export const assetAlbums = (assetId: string, albumId: string) => ({ gsi2pk: partitions.assetAlbums(assetId).value, gsi2sk: albumId });
export const assetLinks = (assetId: string, linkId: string) => ({ gsi2pk: partitions.assetLinks(assetId).value, gsi2sk: linkId });
export const albumActivities = (albumId: string, createdAt: string, activityId: string) => ({
  gsi1pk: partitions.albumActivities(albumId).value,
  gsi1sk: dateOrder(createdAt, activityId),
});
export const assetActivities = (assetId: string, activityId: string) => ({
  gsi2pk: partitions.assetActivities(assetId).value,
  gsi2sk: activityId,
});
export const face = (faceId: string, assetId: string) => ({ gsi1pk: partitions.face(faceId).value, gsi1sk: assetId });
export const assetTags = (assetId: string, tagId: string) => ({ gsi2pk: partitions.assetTags(assetId).value, gsi2sk: tagId });
export const assetMemories = (assetId: string, memoryId: string) => ({ gsi2pk: partitions.assetMemories(assetId).value, gsi2sk: memoryId });
/** `ix_geo` (the map index) when the asset has a position. */
export const geo = (ownerId: string, exif: { latitude: number | null; longitude: number | null }): Record<string, string> =>
  exif.latitude !== null && exif.longitude !== null ? { ix_geo: partitions.geo(ownerId).value } : {};
/** `ix_<field>` for each searchable EXIF value the asset has. */
export const exif = (
  ownerId: string,
  exif: Partial<Record<SearchableExifField, string | null>>,
  fields: readonly SearchableExifField[],
): Record<string, string> =>
  Object.fromEntries(
    fields.flatMap((field) => {
      const value = exif[field];
      return typeof value === 'string' && value !== '' ? [[`ix_${field}`, partitions.exif(field, ownerId, value).value]] : [];
    }),
  );
