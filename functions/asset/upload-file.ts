import * as env from '#shared/core/env.ts';
import { acceptUploadFile, uploadFieldLimits, uploadFields } from '#shared/domain/upload-files.ts';
import type { AssetFileUploadResponseDto } from '#shared/dto/v1/asset.response.ts';
import { readUploadFieldsV1 } from '#shared/dto/v1/asset.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { parseMultipart } from '#shared/http/multipart.ts';
import { returns } from '#shared/http/pipeline.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { uploadFile } from '#shared/services/upload/upload.service.ts';

// The body is multipart/form-data: file types are refused as each file starts, then the service
// checks the rest in Immich's order. A duplicate answers 200 with the existing id.
export const handler = httpHandler(
  { access: 'user', permission: 'asset.upload', returns: returns<AssetFileUploadResponseDto>(), status: 201 },
  async ({ auth, event }) => {
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
