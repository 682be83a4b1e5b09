import type { AuthDeviceResponseDto } from '#shared/dto/v1/user.response.ts';
import { mapAuthDevice } from '#shared/dto/v1/user.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAuthDevices } from '#shared/services/auth.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'session.read', returns: returns<AuthDeviceResponseDto[]>() },
  async ({ auth }) => (await getAuthDevices(auth)).map(mapAuthDevice),
);
