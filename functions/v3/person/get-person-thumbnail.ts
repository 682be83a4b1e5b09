import { IdParams } from '#shared/dto/common.ts';
import { fileResponse } from '#shared/http/files.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { RawResponse } from '#shared/http/response.ts';
import { deliver, personThumbnailFile } from '#shared/services/file.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'person.read', returns: returns<RawResponse>(), params: IdParams },
  async ({ auth, params, event }) => {
    const file = await personThumbnailFile(auth, params.id);
    return fileResponse(file, await deliver(file, 'Not Found'), event);
  },
);
