import * as env from '#shared/core/env.ts';
import { acceptUploadFile, uploadFieldLimits, uploadFields } from '#shared/domain/upload-files.ts';
import type { AssetFileUploadResponseDto } from '#shared/dto/v1/asset.response.ts';
import { readUploadFieldsV1 } from '#shared/dto/v1/asset.ts';
import { parseMultipart } from '#shared/http/multipart.ts';
import { returns } from '#shared/http/pipeline.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { sharedHandler } from '#shared/http/shared-handler.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { declaredDuplicate, requireUploadAllowed, uploadRule } from '#shared/services/upload/stored-upload.service.ts';
import { uploadFile } from '#shared/services/upload/upload.service.ts';

// The body is multipart/form-data: file types are refused as each file starts, then the service
// checks the rest in Immich's order. A duplicate answers 200 with the existing id: at once, before
// the body is read, when the client names its SHA-1 in `x-immich-checksum` (Immich v3's header).
// A shared link's visitor uploads when the link allows it (v1.100: 401 otherwise); the album's apps
// are told of its new asset (`publish`).
export const handler = sharedHandler(
  { publish, ...uploadRule, returns: returns<AssetFileUploadResponseDto>(), status: 201 },
  async ({ auth, event }) => {
    await requireUploadAllowed(auth, 'v1');
    const duplicateId = await declaredDuplicate(auth, event.headers['x-immich-checksum']);
    if (duplicateId) return new HttpResponse({ id: duplicateId, duplicate: true }, { status: 200 });
    const form = await parseMultipart(event, {
      fileFields: Object.values(uploadFields),
      maxBytes: env.uploadLimitBytes(),
      accept: acceptUploadFile,
      fieldLimits: uploadFieldLimits,
    });
    const result = await uploadFile(auth, { ...form, readFields: readUploadFieldsV1 });
    return new HttpResponse(result, { status: result.duplicate ? 200 : 201 });
  },
);
