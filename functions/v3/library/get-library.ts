import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { libraryNotFound } from '#shared/services/absent-features.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'library.read', params: IdParams, returns: returns<never>() },
  () => libraryNotFound(),
);
