import { IdParams } from '#shared/dto/common.ts';
import { ValidateLibraryDto } from '#shared/dto/v3/library.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { libraryNotFound } from '#shared/services/absent-features.service.ts';

// Immich's validate asks for the admin alone, no API-key permission.
export const handler = httpHandler(
  { generation: 'v3', access: 'admin', params: IdParams, body: ValidateLibraryDto, returns: returns<never>() },
  () => libraryNotFound(),
);
