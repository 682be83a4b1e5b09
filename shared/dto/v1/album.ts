import * as v from 'valibot';
import type { AlbumFilter, AlbumShare, NewAlbum } from '../../model/album.ts';
import { limits } from '../../model/limits.ts';
import { as, booleanish, dto, isOneOf, optional, optionalUuidListUpTo, rules, uuid, uuidListUpTo, uuidV4 } from '../common.ts';

/** `CreateAlbumDto`. */
export const CreateAlbumDto = v.pipe(
  dto({
    albumName: v.pipe(v.unknown(), rules.maxLength(limits.name), rules.isString, as<string>()),
    description: optional(v.pipe(v.unknown(), rules.maxLength(limits.description), rules.isString, as<string>())),
    sharedWithUserIds: optionalUuidListUpTo(limits.bulkGroups),
    assetIds: optionalUuidListUpTo(limits.bulkAssets),
  }),
  // v1.100's shared users add and remove assets: editors.
  v.transform(({ sharedWithUserIds, ...album }): NewAlbum => ({ ...album, albumUsers: editors(sharedWithUserIds ?? []) })),
);

/** Users shared with through v1.100's routes, as v3's roles name them. */
const editors = (userIds: readonly string[]): AlbumShare[] => userIds.map((userId) => ({ userId, role: 'editor' }));

/**
 * `GetAlbumsDto` (GET /album) as v3's filter: the caller's own albums; `shared=true` all shared ones
 * (theirs and those shared with them); `shared=false` theirs shared with no one; `assetId` alone.
 */
export const GetAlbumsDto = v.pipe(
  dto({ shared: optional(booleanish()), assetId: optional(uuid()) }),
  v.transform(({ shared, assetId }): AlbumFilter => {
    if (assetId) return { assetId };
    if (shared === true) return { isShared: true };
    return shared === false ? { isOwned: true, isShared: false } : { isOwned: true };
  }),
);

/** `AlbumInfoDto` (GET /album/:id). */
export const AlbumInfoDto = dto({ withoutAssets: optional(booleanish()) });

const albumOrders = ['asc', 'desc'] as const;

/** `UpdateAlbumDto` (PATCH /album/:id): every field optional. */
export const UpdateAlbumDto = dto({
  albumName: optional(v.pipe(v.unknown(), rules.maxLength(limits.name), rules.isString, as<string>())),
  description: optional(v.pipe(v.unknown(), rules.maxLength(limits.description), rules.isString, as<string>())),
  albumThumbnailAssetId: optional(uuid()),
  isActivityEnabled: optional(booleanish()),
  order: optional(v.pipe(v.unknown(), isOneOf(albumOrders), as<(typeof albumOrders)[number]>())),
});

/** `BulkIdsDto` of PUT and DELETE /album/:id/assets: at most `limits.albumAssets` ids (docs/api.md, "Limits"). */
export const AlbumAssetIdsDto = dto({ ids: uuidListUpTo(limits.albumAssets) });

/** `AddUsersDto` (PUT /album/:id/users): editors. */
export const AddUsersDto = v.pipe(
  dto({ sharedUserIds: uuidListUpTo(limits.bulkGroups) }),
  v.transform(({ sharedUserIds }) => editors(sharedUserIds)),
);

/** DELETE /album/:id/user/:userId: a UUID or `me` (Immich's ParseMeUUIDPipe). */
export const AlbumUserParams = dto({
  id: uuid(),
  userId: v.pipe(
    v.unknown(),
    v.check((x: unknown) => x === 'me' || (typeof x === 'string' && uuidV4.test(x)), 'Validation failed (uuid v 4 is expected)'),
    as<string>(),
  ),
});
