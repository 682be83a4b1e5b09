import { mapSessionV3, type SessionResponseDto } from '#shared/dto/v3/session.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAuthDevices } from '#shared/services/auth.service.ts';

// v1.100's /auth/devices: the caller's sessions, the current one marked.
export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'session.read', returns: returns<SessionResponseDto[]>() },
  async ({ auth }) => (await getAuthDevices(auth)).map(mapSessionV3),
);
