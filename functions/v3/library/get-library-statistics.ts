import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { libraryStatisticsNotFound } from '#shared/services/absent-features.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'library.statistics', params: IdParams, returns: returns<never>() },
  ({ params }) => libraryStatisticsNotFound(params.id),
);
