import { DeviceIdParams } from '#shared/dto/v1/asset.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getUserAssetsByDeviceId } from '#shared/services/asset.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'asset.read', returns: returns<string[]>(), params: DeviceIdParams },
  ({ auth, params }) => getUserAssetsByDeviceId(auth, params.deviceId),
);
