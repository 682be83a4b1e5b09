import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { DownloadInfoDto } from '#shared/schemas/download.ts';
import { type DownloadResponseDto, getDownloadInfo } from '#shared/services/download.service.ts';

// A shared-link route too in Immich (a visitor's own assets are checked by asset.download).
export const handler = httpHandler(
  { access: 'user', returns: returns<DownloadResponseDto>(), body: DownloadInfoDto, status: 201 },
  ({ auth, body }) => getDownloadInfo(auth, body),
);
