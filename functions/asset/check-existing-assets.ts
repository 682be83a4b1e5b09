import type { CheckExistingAssetsResponseDto } from '#shared/dto/v1/asset.response.ts';
import { CheckExistingAssetsDto } from '#shared/dto/v1/asset.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { checkExistingAssets } from '#shared/services/asset.service.ts';

export const handler = httpHandler(
  {
    access: 'user',
    permission: 'asset.upload',
    returns: returns<CheckExistingAssetsResponseDto>(),
    body: CheckExistingAssetsDto,
    status: 200,
  },
  async ({ auth, body }) => ({ existingIds: await checkExistingAssets(auth, body) }),
);
