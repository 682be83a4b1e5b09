import { LicenseKeyDto, type LicenseResponseDto } from '#shared/dto/v3/license.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { setUserLicense } from '#shared/services/license.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'userLicense.update', body: LicenseKeyDto, returns: returns<LicenseResponseDto>() },
  ({ auth, body }) => setUserLicense(auth, body.licenseKey, body.activationKey),
);
