import { IdParams } from '#shared/dto/common.ts';
import type { AssetResponseDto } from '#shared/dto/v1/asset.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getPersonAssets } from '#shared/services/person.service.ts';

export const handler = httpHandler({ access: 'user', returns: returns<AssetResponseDto[]>(), params: IdParams }, ({ auth, params }) =>
  getPersonAssets(auth, params.id),
);
