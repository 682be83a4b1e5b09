/**
 * Immich v3.2's album requests (`@immich/sdk` 3.2.2: CreateAlbumDto, GetAlbumsDto, UpdateAlbumDto,
 * AddUsersDto, UpdateAlbumUserDto, AlbumsAddAssetsDto, BulkIdsDto), read into the one model's inputs.
 */
import * as v from 'valibot';
import { type AlbumFilter, type AlbumShare, albumUserRoles, type NewAlbum } from '../../model/album.ts';
import { limits } from '../../model/limits.ts';
import { uuidV4 } from '../common.ts';
import { boolean, object, picklist, stringToBool, text, upTo, uuid, uuidsUpTo } from './common.ts';

const role = picklist(albumUserRoles);

export const CreateAlbumDtoV3 = v.pipe(
  object({
    albumName: text(limits.name),
    description: v.optional(v.nullable(text(limits.description))),
    albumUsers: v.optional(upTo(limits.bulkGroups, v.array(object({ userId: uuid, role }), '$property must be an array'))),
    assetIds: v.optional(uuidsUpTo(limits.bulkAssets)),
  }),
  v.transform((input): NewAlbum => input),
);

/** GET /albums: 3.2's filters, and 3.1's `shared` (the apps of 3.1 still send it: true is `isShared`, false is theirs not shared). */
export const GetAlbumsDtoV3 = v.pipe(
  object({
    id: v.optional(uuid),
    name: v.optional(v.string('$property must be a string')),
    isOwned: v.optional(stringToBool),
    isShared: v.optional(stringToBool),
    shared: v.optional(stringToBool),
    assetId: v.optional(uuid),
  }),
  v.transform(({ shared, ...filter }): AlbumFilter => {
    if (filter.assetId) return { assetId: filter.assetId };
    if (shared === undefined) return filter;
    return shared ? { ...filter, isShared: true } : { ...filter, isOwned: true, isShared: false };
  }),
);

export const UpdateAlbumDtoV3 = object({
  albumName: v.optional(text(limits.name)),
  description: v.optional(v.nullable(text(limits.description))),
  albumThumbnailAssetId: v.optional(uuid),
  isActivityEnabled: v.optional(boolean),
  order: v.optional(picklist(['asc', 'desc'] as const)),
});

/** PUT /albums/:id/users: each user with a role (an editor when none is given). */
export const AddUsersDtoV3 = v.pipe(
  object({
    albumUsers: upTo(
      limits.bulkGroups,
      v.pipe(
        v.array(object({ userId: uuid, role: v.optional(role, 'editor') }), '$property must be an array'),
        v.minLength(1, '$property must contain at least 1 element'),
      ),
    ),
  }),
  v.transform(({ albumUsers }): AlbumShare[] => albumUsers),
);

export const UpdateAlbumUserDto = object({ role });

export const AlbumsAddAssetsDto = object({ albumIds: uuidsUpTo(limits.bulkTargets), assetIds: uuidsUpTo(limits.bulkAssets) });

/** Asset ids of PUT and DELETE /albums/:id/assets (docs/api.md, "Limits"). */
export const AlbumAssetIdsDtoV3 = object({ ids: uuidsUpTo(limits.albumAssets) });

/** Asset ids (tags' and memories' assets). */
export const BulkIdsDtoV3 = object({ ids: uuidsUpTo(limits.bulkAssets) });

/** Stack ids (DELETE /stacks): each stack is read and rewritten, so fewer than assets. */
export const StackIdsDto = object({ ids: uuidsUpTo(limits.bulkGroups) });

/** `{id, userId}` where the user may be `me` (Immich's 3.x still accepts it). */
export const AlbumUserParamsV3 = object({
  id: uuid,
  userId: v.pipe(
    v.string('$property must be a string'),
    v.check((x) => x === 'me' || uuidV4.test(x), '$property must be a UUID or me'),
  ),
});
