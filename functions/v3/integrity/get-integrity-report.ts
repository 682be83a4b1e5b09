import { IntegrityReportQuery } from '#shared/dto/v3/maintenance.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { integrityReport } from '#shared/services/absent-features.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'maintenance', query: IntegrityReportQuery, returns: returns<{ items: never[] }>() },
  () => integrityReport(),
);
