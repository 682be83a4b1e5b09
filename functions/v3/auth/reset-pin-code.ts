import { PinCodeResetDto } from '#shared/dto/v3/auth.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { resetPinCode } from '#shared/services/pin-code.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'pinCode.delete', body: PinCodeResetDto, returns: returns<void>(), status: 204 },
  ({ auth, body }) => resetPinCode(auth, body),
);
