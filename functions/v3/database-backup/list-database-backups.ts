import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { listDatabaseBackups } from '#shared/services/absent-features.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'backup.list', returns: returns<{ backups: never[] }>() },
  () => listDatabaseBackups(),
);
