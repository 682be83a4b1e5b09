import { IdParams } from '#shared/dto/common.ts';
import { mapPersonV3, type PersonResponseDto } from '#shared/dto/v3/person.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getPerson } from '#shared/services/person/person.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'person.read', returns: returns<PersonResponseDto>(), params: IdParams },
  async ({ auth, params }) => mapPersonV3(await getPerson(auth, params.id)),
);
