import type { PersonStatisticsResponseDto } from '#shared/dto/common/person.response.ts';
import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getPersonStatistics } from '#shared/services/person/person.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'person.statistics', returns: returns<PersonStatisticsResponseDto>(), params: IdParams },
  async ({ auth, params }) => ({ assets: await getPersonStatistics(auth, params.id) }),
);
