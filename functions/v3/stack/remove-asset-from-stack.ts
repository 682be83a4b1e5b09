import { StackAssetParams } from '#shared/dto/v3/stack.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { removeAssetFromStack } from '#shared/services/stack.service.ts';

export const handler = httpHandler(
  {
    publish,
    generation: 'v3',
    access: 'user',
    permission: 'stack.update',
    params: StackAssetParams,
    returns: returns<void>(),
    status: 204,
  },
  ({ auth, params }) => removeAssetFromStack(auth, params.id, params.assetId),
);
