import { mapUploadSession, UploadSessionParams, type UploadSessionResponseDto } from '#shared/dto/v1/upload-session.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getUploadSessionStatus } from '#shared/services/upload/session.service.ts';

// Which parts the store holds, with fresh URLs for every part: how an interrupted upload resumes.
export const handler = httpHandler(
  { access: 'user', permission: 'asset.upload', returns: returns<UploadSessionResponseDto>(), params: UploadSessionParams },
  async ({ auth, params }) => mapUploadSession(await getUploadSessionStatus(auth, params.sessionId)),
);
