import { IdParams } from '#shared/dto/common.ts';
import { fileResponse } from '#shared/http/files.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { RawResponse } from '#shared/http/response.ts';
import { sharedHandler } from '#shared/http/shared-handler.ts';
import { deliver, downloadFile } from '#shared/services/file.service.ts';

export const handler = sharedHandler(
  { access: 'shared', permission: 'asset.download', returns: returns<RawResponse>(), params: IdParams },
  async ({ auth, params, event }) => {
    const file = await downloadFile(auth, params.id);
    return fileResponse(file, await deliver(file, `No file found for asset ${params.id}`), event);
  },
);
