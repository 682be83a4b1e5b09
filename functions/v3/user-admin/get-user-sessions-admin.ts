import { IdParams } from '#shared/dto/common.ts';
import { mapSessionV3, type SessionResponseDto } from '#shared/dto/v3/session.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getUserSessions } from '#shared/services/auth.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'adminSession.read', returns: returns<SessionResponseDto[]>(), params: IdParams },
  async ({ params }) => (await getUserSessions(params.id)).map(mapSessionV3),
);
