import { LicenseKeyDto, type LicenseResponseDto } from '#shared/dto/v3/license.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { setServerLicense } from '#shared/services/license.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'serverLicense.update', body: LicenseKeyDto, returns: returns<LicenseResponseDto>() },
  ({ body }) => setServerLicense(body.licenseKey, body.activationKey),
);
