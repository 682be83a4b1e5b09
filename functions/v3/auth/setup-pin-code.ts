import { PinCodeSetupDto } from '#shared/dto/v3/auth.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { setupPinCode } from '#shared/services/pin-code.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'pinCode.create', body: PinCodeSetupDto, returns: returns<void>(), status: 204 },
  ({ auth, body }) => setupPinCode(auth, body.pinCode),
);
