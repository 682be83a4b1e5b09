import { IdParams } from '#shared/dto/common.ts';
import { mapStack, type StackResponseDto, StackUpdateDto } from '#shared/dto/v3/stack.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { updateStack } from '#shared/services/stack.service.ts';

export const handler = httpHandler(
  {
    publish,
    generation: 'v3',
    access: 'user',
    permission: 'stack.update',
    params: IdParams,
    body: StackUpdateDto,
    returns: returns<StackResponseDto>(),
  },
  async ({ auth, params, body }) => mapStack(await updateStack(auth, params.id, body.primaryAssetId), auth.user.id),
);
