import { IdParams } from '#shared/dto/common.ts';
import type { PersonResponseDto } from '#shared/dto/v1/person.response.ts';
import { mapPerson } from '#shared/dto/v1/person.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getPerson } from '#shared/services/person/person.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'person.read', returns: returns<PersonResponseDto>(), params: IdParams },
  async ({ auth, params }) => mapPerson(await getPerson(auth, params.id)),
);
