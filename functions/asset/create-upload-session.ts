import type { AssetFileUploadResponseDto } from '#shared/dto/v1/asset.response.ts';
import { CreateUploadSessionDto, mapUploadSession, type UploadSessionResponseDto } from '#shared/dto/v1/upload-session.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { createUploadSession } from '#shared/services/upload/session.service.ts';

// Not Immich's: large files go straight into the store (docs/large-uploads.md). A duplicate
// answers as POST /asset/upload does (200 {id, duplicate: true}); a new session 201 with its part URLs.
export const handler = httpHandler(
  {
    access: 'user',
    permission: 'asset.upload',
    returns: returns<UploadSessionResponseDto | AssetFileUploadResponseDto>(),
    body: CreateUploadSessionDto,
    status: 201,
  },
  async ({ auth, body }) => {
    const result = await createUploadSession(auth, body);
    return 'session' in result
      ? new HttpResponse(mapUploadSession(result), { status: 201 })
      : new HttpResponse({ id: result.id, duplicate: true }, { status: 200 });
  },
);
