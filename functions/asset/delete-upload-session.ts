import { UploadSessionParams } from '#shared/dto/v1/upload-session.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { deleteUploadSessionOf } from '#shared/services/upload/session.service.ts';

// Gives an upload up: its parts are dropped and the session ends.
export const handler = httpHandler(
  { access: 'user', permission: 'asset.upload', returns: returns<void>(), params: UploadSessionParams, status: 204 },
  ({ auth, params }) => deleteUploadSessionOf(auth, params.sessionId),
);
