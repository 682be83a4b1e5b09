import { IdParams } from '#shared/dto/common.ts';
import type { AssetResponseDto, SanitizedAssetResponseDto } from '#shared/dto/v1/asset.response.ts';
import { mapAssetInfo } from '#shared/dto/v1/asset.response.ts';
import { returns } from '#shared/http/pipeline.ts';
import { sharedHandler } from '#shared/http/shared-handler.ts';
import { getAssetInfo } from '#shared/services/asset.service.ts';
import { stackChildren } from '#shared/services/stack.service.ts';

// A shared-link route too (Immich's @SharedLinkRoute): a visitor gets the link's assets only.
export const handler = sharedHandler(
  { access: 'shared', permission: 'asset.read', returns: returns<AssetResponseDto | SanitizedAssetResponseDto>(), params: IdParams },
  async ({ auth, params }) => {
    const info = await getAssetInfo(auth, params.id);
    // v1.100's detail lists the stack's other assets (`stack`), for its viewer.
    return mapAssetInfo(info, auth.user.id, info.view === 'full' ? await stackChildren(info.asset) : undefined);
  },
);
