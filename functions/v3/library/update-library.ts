import { IdParams } from '#shared/dto/common.ts';
import { UpdateLibraryDto } from '#shared/dto/v3/library.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { libraryNotFound } from '#shared/services/absent-features.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'library.update', params: IdParams, body: UpdateLibraryDto, returns: returns<never>() },
  () => libraryNotFound(),
);
