import { IdParams } from '#shared/dto/common.ts';
import { mapSharedLinkV3, type SharedLinkResponseDto } from '#shared/dto/v3/shared-link.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getSharedLinkById } from '#shared/services/shared-link.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'sharedLink.read', returns: returns<SharedLinkResponseDto>(), params: IdParams },
  async ({ auth, params }) => mapSharedLinkV3(await getSharedLinkById(auth, params.id), { callerId: auth.user.id, withExif: true }),
);
