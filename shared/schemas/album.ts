import * as v from 'valibot';
import { optionalUuidList } from './asset.ts';
import { as, booleanish, dto, optional, rules, uuid } from './common.ts';

/** `CreateAlbumDto`. */
export const CreateAlbumDto = dto({
  albumName: v.pipe(v.unknown(), rules.isString, as<string>()),
  description: optional(v.pipe(v.unknown(), rules.isString, as<string>())),
  sharedWithUserIds: optionalUuidList(),
  assetIds: optionalUuidList(),
});
export type CreateAlbumInput = v.InferOutput<typeof CreateAlbumDto>;

/** `GetAlbumsDto` (GET /album). */
export const GetAlbumsDto = dto({ shared: optional(booleanish()), assetId: optional(uuid()) });

/** `AlbumInfoDto` (GET /album/:id). */
export const AlbumInfoDto = dto({ withoutAssets: optional(booleanish()) });
