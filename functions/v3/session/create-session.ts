import { mapSessionV3, type SessionCreateResponseDto } from '#shared/dto/v3/session.response.ts';
import { SessionCreateDto } from '#shared/dto/v3/session.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { createChildSession } from '#shared/services/auth.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'session.create',
    body: SessionCreateDto,
    returns: returns<SessionCreateResponseDto>(),
    status: 201,
  },
  async ({ auth, body }) => {
    const { session, token } = await createChildSession(auth, body);
    return { ...mapSessionV3({ session, current: false }), token };
  },
);
