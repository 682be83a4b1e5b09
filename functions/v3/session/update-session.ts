import { IdParams } from '#shared/dto/common.ts';
import { mapSessionV3, type SessionResponseDto } from '#shared/dto/v3/session.response.ts';
import { SessionUpdateDto } from '#shared/dto/v3/session.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateSession } from '#shared/services/session.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'session.update',
    params: IdParams,
    body: SessionUpdateDto,
    returns: returns<SessionResponseDto>(),
  },
  async ({ auth, params, body }) => mapSessionV3(await updateSession(auth, params.id, body)),
);
