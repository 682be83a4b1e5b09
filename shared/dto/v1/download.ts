import * as v from 'valibot';
import { limits } from '../../model/limits.ts';
import { dto, maxItems, optional, optionalUuidListUpTo, uuid, uuidList } from '../common.ts';

/** `DownloadInfoDto` (POST /download/info): `archiveSize` `@IsInt() @IsPositive() @Optional()`. */
export const DownloadInfoDto = dto({
  assetIds: optionalUuidListUpTo(limits.bulkAssets),
  albumId: optional(uuid()),
  userId: optional(uuid()),
  archiveSize: optional(
    v.pipe(
      v.unknown(),
      v.check((x: unknown) => typeof x === 'number' && x > 0, '$property must be a positive number'),
      v.check((x: unknown) => Number.isInteger(x), '$property must be an integer number'),
      v.transform((x: unknown) => x as number),
    ),
  ),
});

/** `AssetIdsDto` (POST /download/archive), at most `limits.archiveAssets` ids (not in Immich). */
export const AssetIdsDto = dto({
  assetIds: v.pipe(uuidList(), maxItems(limits.archiveAssets)),
});
