import * as v from 'valibot';
import { limits } from '../../model/limits.ts';
import { as, booleanish, dto, isOneOf, optional, optionalUuidList, rules, uuid, uuidList, uuidV4 } from '../common.ts';

/** `CreateAlbumDto`. */
export const CreateAlbumDto = dto({
  albumName: v.pipe(v.unknown(), rules.maxLength(limits.name), rules.isString, as<string>()),
  description: optional(v.pipe(v.unknown(), rules.maxLength(limits.description), rules.isString, as<string>())),
  sharedWithUserIds: optionalUuidList(),
  assetIds: optionalUuidList(),
});
export type CreateAlbumInput = v.InferOutput<typeof CreateAlbumDto>;

/** `GetAlbumsDto` (GET /album). */
export const GetAlbumsDto = dto({ shared: optional(booleanish()), assetId: optional(uuid()) });

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
export type UpdateAlbumInput = v.InferOutput<typeof UpdateAlbumDto>;

/** `AddUsersDto` (PUT /album/:id/users). */
export const AddUsersDto = dto({ sharedUserIds: uuidList() });

/** DELETE /album/:id/user/:userId: a UUID or `me` (Immich's ParseMeUUIDPipe). */
export const AlbumUserParams = dto({
  id: uuid(),
  userId: v.pipe(
    v.unknown(),
    v.check((x: unknown) => x === 'me' || (typeof x === 'string' && uuidV4.test(x)), 'Validation failed (uuid v 4 is expected)'),
    as<string>(),
  ),
});
