import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { AuthDeviceResponseDto } from '#shared/services/auth.service.ts';
import { getAuthDevices } from '#shared/services/auth.service.ts';

export const handler = httpHandler({ access: 'user', returns: returns<AuthDeviceResponseDto[]>() }, ({ auth }) => getAuthDevices(auth));
