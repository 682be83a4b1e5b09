import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { deleteProfileImage } from '#shared/services/profile-image.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'userProfileImage.delete', returns: returns<void>(), status: 204 },
  ({ auth }) => deleteProfileImage(auth),
);
