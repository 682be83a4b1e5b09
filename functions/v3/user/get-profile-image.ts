import { IdParams } from '#shared/dto/common.ts';
import { fileResponse } from '#shared/http/files.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { RawResponse } from '#shared/http/response.ts';
import { deliver } from '#shared/services/file.service.ts';
import { profileImageFile } from '#shared/services/profile-image.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'userProfileImage.read', returns: returns<RawResponse>(), params: IdParams },
  async ({ params, event }) => {
    const file = await profileImageFile(params.id);
    return fileResponse(file, await deliver(file, 'User does not have a profile image'), event);
  },
);
