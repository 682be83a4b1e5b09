import { mapStack, type StackResponseDto, StackSearchDto } from '#shared/dto/v3/stack.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { searchStacks } from '#shared/services/stack.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'stack.read', query: StackSearchDto, returns: returns<StackResponseDto[]>() },
  async ({ auth, query }) => (await searchStacks(auth, query.primaryAssetId)).map((view) => mapStack(view, auth.user.id)),
);
