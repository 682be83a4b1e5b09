import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getPersonStatistics, type PersonStatisticsResponseDto } from '#shared/services/person.service.ts';

export const handler = httpHandler(
  { access: 'user', returns: returns<PersonStatisticsResponseDto>(), params: IdParams },
  ({ auth, params }) => getPersonStatistics(auth, params.id),
);
