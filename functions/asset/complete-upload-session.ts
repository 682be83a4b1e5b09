import type { AssetFileUploadResponseDto } from '#shared/dto/v1/asset.response.ts';
import { readSessionFieldsV1 } from '#shared/dto/v1/asset.ts';
import { UploadSessionParams } from '#shared/dto/v1/upload-session.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { completeUploadSession } from '#shared/services/upload/session-complete.service.ts';

// The parts become the asset: 201 {id, duplicate: false}, as POST /asset/upload answers
// (200 {id, duplicate: true} when the same file was recorded meanwhile by another upload).
export const handler = httpHandler(
  { access: 'user', permission: 'asset.upload', returns: returns<AssetFileUploadResponseDto>(), params: UploadSessionParams, status: 201 },
  async ({ auth, params }) => {
    const result = await completeUploadSession(auth, params.sessionId, readSessionFieldsV1);
    return new HttpResponse(result, { status: result.duplicate ? 200 : 201 });
  },
);
