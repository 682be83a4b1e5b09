import * as env from '#shared/core/env.ts';
import { acceptUploadFile, uploadFieldLimits, uploadFields } from '#shared/domain/upload-files.ts';
import { type AssetMediaResponseDto, mapUploadV3 } from '#shared/dto/v3/asset.response.ts';
import { readUploadFieldsV3 } from '#shared/dto/v3/asset.ts';
import { parseMultipart } from '#shared/http/multipart.ts';
import { returns } from '#shared/http/pipeline.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { sharedHandler } from '#shared/http/shared-handler.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { declaredDuplicate, requireUploadAllowed, uploadRule } from '#shared/services/upload/stored-upload.service.ts';
import { uploadFile } from '#shared/services/upload/upload.service.ts';

// v1.100's upload over the same service, with v3's fields and answer: 201 created, 200 duplicate
// (at once, before the body is read, when `x-immich-checksum` names the owner's file: Immich's
// AssetUploadInterceptor). A shared link's visitor uploads when the link allows it (an album's
// apps are told of its new asset: `publish`).
export const handler = sharedHandler(
  { publish, generation: 'v3', ...uploadRule, returns: returns<AssetMediaResponseDto>(), status: 201 },
  async ({ auth, event }) => {
    await requireUploadAllowed(auth, 'v3');
    const duplicateId = await declaredDuplicate(auth, event.headers['x-immich-checksum']);
    if (duplicateId) return new HttpResponse(mapUploadV3({ id: duplicateId, duplicate: true }), { status: 200 });
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
