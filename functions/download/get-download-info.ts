import { type DownloadResponseDto, mapDownloadInfo } from '#shared/dto/v1/download.response.ts';
import { DownloadInfoDto } from '#shared/dto/v1/download.ts';
import { returns } from '#shared/http/pipeline.ts';
import { sharedHandler } from '#shared/http/shared-handler.ts';
import { getDownloadInfo } from '#shared/services/download/download.service.ts';

// A shared-link route too (Immich's): a visitor downloads what their link shows, if it allows downloads.
export const handler = sharedHandler(
  { access: 'shared', permission: 'asset.download', returns: returns<DownloadResponseDto>(), body: DownloadInfoDto, status: 201 },
  async ({ auth, body }) => mapDownloadInfo(await getDownloadInfo(auth, body)),
);
