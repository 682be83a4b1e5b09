import { UploadPartParams, UploadPartQuery } from '#shared/dto/v1/upload-session.ts';
import { bodyBytes } from '#shared/http/multipart.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { acceptLocalPart } from '#shared/services/upload/session.service.ts';

// Local only (infra/routes.ts `localOnly`): what S3's presigned UploadPart does deployed. The
// URL is the credential (signed by the server for one part of one session, until it expires).
export const handler = publicHandler(
  { returns: returns<void>(), params: UploadPartParams, query: UploadPartQuery, status: 200 },
  ({ params, query, event }) =>
    acceptLocalPart({ ...params, ...query, sha1Header: event.headers['x-amz-checksum-sha1'] }, bodyBytes(event)),
);
