import * as env from '#shared/core/env.ts';
import { acceptUploadFile, uploadFieldLimits, uploadFields } from '#shared/domain/upload-files.ts';
import { type AssetMediaResponseDto, mapUploadV3 } from '#shared/dto/v3/asset.response.ts';
import { readUploadFieldsV3 } from '#shared/dto/v3/asset.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { parseMultipart } from '#shared/http/multipart.ts';
import { returns } from '#shared/http/pipeline.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { uploadFile } from '#shared/services/upload/upload.service.ts';

// v1.100's upload over the same service, with v3's fields and answer: 201 created, 200 duplicate.
export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'asset.upload', returns: returns<AssetMediaResponseDto>(), status: 201 },
  async ({ auth, event }) => {
    const form = await parseMultipart(event, {
      fileFields: Object.values(uploadFields),
      maxBytes: env.uploadLimitBytes(),
      accept: acceptUploadFile,
      fieldLimits: uploadFieldLimits,
    });
    const result = await uploadFile(auth, { ...form, readFields: readUploadFieldsV3 });
    return new HttpResponse(mapUploadV3(result), { status: result.duplicate ? 200 : 201 });
  },
);
