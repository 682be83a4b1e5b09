import { IdParams } from '#shared/dto/common.ts';
import { mapStack, type StackResponseDto } from '#shared/dto/v3/stack.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getStackView } from '#shared/services/stack.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'stack.read', params: IdParams, returns: returns<StackResponseDto>() },
  async ({ auth, params }) => mapStack(await getStackView(auth, params.id), auth.user.id),
);
