import { DatabaseBackupDeleteDto } from '#shared/dto/v3/maintenance.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { deleteDatabaseBackups } from '#shared/services/absent-features.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'backup.delete', body: DatabaseBackupDeleteDto, returns: returns<void>(), status: 200 },
  ({ body }) => deleteDatabaseBackups(body.backups),
);
