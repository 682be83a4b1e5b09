import { UpdateStackParentDto } from '#shared/dto/v1/asset.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { updateStackParent } from '#shared/services/stack.service.ts';

export const handler = httpHandler(
  { publish, access: 'user', permission: 'asset.update', returns: returns<void>(), body: UpdateStackParentDto, status: 204 },
  ({ auth, body }) => updateStackParent(auth, body.oldParentId, body.newParentId),
);
