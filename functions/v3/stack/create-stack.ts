import { mapStack, StackCreateDto, type StackResponseDto } from '#shared/dto/v3/stack.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { createStack } from '#shared/services/stack.service.ts';

export const handler = httpHandler(
  {
    publish,
    generation: 'v3',
    access: 'user',
    permission: 'stack.create',
    body: StackCreateDto,
    returns: returns<StackResponseDto>(),
    status: 201,
  },
  async ({ auth, body }) => mapStack(await createStack(auth, body.assetIds), auth.user.id),
);
