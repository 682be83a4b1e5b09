import { IntegrityReportItemParams } from '#shared/dto/v3/maintenance.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { integrityReportItemNotFound } from '#shared/services/absent-features.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'maintenance', params: IntegrityReportItemParams, returns: returns<never>() },
  () => integrityReportItemNotFound(),
);
