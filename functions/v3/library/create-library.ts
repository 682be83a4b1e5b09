import { CreateLibraryDto } from '#shared/dto/v3/library.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { refuseLibrary } from '#shared/services/absent-features.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'library.create', body: CreateLibraryDto, returns: returns<never>(), status: 201 },
  () => refuseLibrary(),
);
