/**
 * Immich v3.2's shared links (`@immich/sdk` 3.2.2: SharedLinkCreateDto, SharedLinkEditDto,
 * SharedLinkResponseDto), over the same links as v1.100's `/shared-link` routes.
 */
import * as v from 'valibot';
import { limits } from '../../model/limits.ts';
import type { SharedLinkCreate, SharedLinkEdit, SharedLinkShown } from '../../model/shared-link.ts';
import { type AlbumResponseDto, mapAlbumV3 } from './album.response.ts';
import { type AssetResponseDto, mapAssetV3, mapSanitizedAssetV3, type SanitizedAssetResponseDto } from './asset.response.ts';
import { boolean, object, picklist, text, uuid, uuidsUpTo } from './common.ts';

const expiresAt = v.optional(
  v.nullable(
    v.pipe(
      v.string('$property must be a date-time'),
      v.check((x) => !Number.isNaN(new Date(x).getTime()), '$property must be an ISO date-time'),
      v.transform((x) => new Date(x)),
    ),
  ),
);

/**
 * What creating and editing share. Immich reads an empty `password` or `slug` as none (the web app
 * sends `""` for each when left empty); a slug is a custom URL (`/s/<slug>`), unique among all
 * links, at most `keyValue` characters (it is a key of its own here).
 */
const linkFields = {
  description: v.optional(v.nullable(text(limits.description))),
  password: v.optional(v.nullable(text(limits.password))),
  expiresAt,
  allowUpload: v.optional(boolean),
  allowDownload: v.optional(boolean),
  showMetadata: v.optional(boolean),
  slug: v.optional(v.nullable(text(limits.keyValue))),
};

export const SharedLinkCreateDtoV3 = v.pipe(
  object({
    type: picklist(['ALBUM', 'INDIVIDUAL'] as const),
    assetIds: v.optional(uuidsUpTo(limits.bulkAssets)),
    albumId: v.optional(uuid),
    ...linkFields,
  }),
  v.transform((link): SharedLinkCreate => link),
);

/** PATCH /shared-links/:id: `expiresAt: null` removes the expiry (v1.100's `changeExpiryTime`), `password: null` the password (Immich stores null). */
export const SharedLinkEditDtoV3 = v.pipe(
  object(linkFields),
  v.transform(
    (link): SharedLinkEdit => ({
      ...link,
      ...(link.password === null ? { password: '' } : {}),
      changeExpiryTime: link.expiresAt === null,
    }),
  ),
);

/** GET /shared-links `?albumId=&id=`. */
export const SharedLinkSearchDto = object({ albumId: v.optional(uuid), id: v.optional(uuid) });

/** GET /shared-links/me: the key is the credential (read by authentication); the password or its token as v1.100's route takes them. */
/** POST /shared-links/login: the link (`key` or `slug`, as the visit's credentials) and its password. */
export const SharedLinkLoginQueryDto = object({ key: v.optional(v.string()), slug: v.optional(v.string()) });
export const SharedLinkLoginDto = object({ password: text(limits.password) });

export const SharedLinkPasswordDtoV3 = object({
  key: v.optional(v.string()),
  slug: v.optional(v.string()),
  password: v.optional(text(limits.password)),
  token: v.optional(text(limits.description)),
});

export interface SharedLinkResponseDto {
  id: string;
  description: string | null;
  password: string | null;
  token?: string;
  userId: string;
  key: string;
  slug: string | null;
  type: 'ALBUM' | 'INDIVIDUAL';
  createdAt: string;
  expiresAt: string | null;
  assets: (AssetResponseDto | SanitizedAssetResponseDto)[];
  album?: AlbumResponseDto;
  allowUpload: boolean;
  allowDownload: boolean;
  showMetadata: boolean;
}

/** As v1.100's mapper, with v3's assets and album, and the link's slug. */
export const mapSharedLinkV3 = (
  { link, key, password, contents, token }: SharedLinkShown,
  view: { callerId?: string; withExif: boolean },
): SharedLinkResponseDto => ({
  id: link.id,
  description: link.description,
  password: password ?? null,
  userId: link.userId,
  key,
  slug: link.slug,
  type: link.type,
  createdAt: link.createdAt,
  expiresAt: link.expiresAt,
  assets: (contents?.assets ?? []).map((asset) =>
    view.withExif ? mapAssetV3(asset, { withExif: true, callerId: view.callerId }) : mapSanitizedAssetV3(asset),
  ),
  ...(contents?.album ? { album: mapAlbumV3({ ...contents.album, sharedUsers: [] }, link.userId) } : {}),
  allowUpload: link.allowUpload,
  allowDownload: link.allowDownload,
  showMetadata: link.showExif,
  ...(token ? { token } : {}),
});

/** PUT and DELETE /shared-links/:id/assets. */
export const AssetIdsDtoV3 = object({ assetIds: uuidsUpTo(limits.bulkAssets) });
