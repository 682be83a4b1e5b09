import { IdParams } from '#shared/dto/common.ts';
import { fileResponse, isHead } from '#shared/http/files.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { RawResponse } from '#shared/http/response.ts';
import { sharedHandler } from '#shared/http/shared-handler.ts';
import { deliver, playbackFile } from '#shared/services/file.service.ts';

// The apps' video player: ranges from S3 (a redirect) or the local folder (206).
export const handler = sharedHandler(
  { generation: 'v3', access: 'shared', permission: 'asset.view', returns: returns<RawResponse>(), params: IdParams },
  async ({ auth, params, event }) => {
    const file = await playbackFile(auth, params.id);
    return fileResponse(file, await deliver(file, 'Asset not found or asset is not a video', isHead(event)), event);
  },
);
