import { StackIdsDto } from '#shared/dto/v3/album.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { deleteStacks } from '#shared/services/stack.service.ts';

export const handler = httpHandler(
  { publish, generation: 'v3', access: 'user', permission: 'stack.delete', body: StackIdsDto, returns: returns<void>(), status: 204 },
  ({ auth, body }) => deleteStacks(auth, body.ids),
);
