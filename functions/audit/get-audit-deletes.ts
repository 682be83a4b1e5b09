import type { AuditDeletesResponseDto } from '#shared/dto/v1/sync.response.ts';
import { AuditDeletesDto } from '#shared/dto/v1/sync.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAuditDeletes } from '#shared/services/sync/sync.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'asset.read', returns: returns<AuditDeletesResponseDto>(), query: AuditDeletesDto },
  ({ auth, query }) => getAuditDeletes(auth, query),
);
