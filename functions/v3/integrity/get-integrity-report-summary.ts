import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { integrityReportSummary } from '#shared/services/absent-features.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'admin',
    permission: 'maintenance',
    returns: returns<{ checksum_mismatch: number; missing_file: number; untracked_file: number }>(),
  },
  () => integrityReportSummary(),
);
