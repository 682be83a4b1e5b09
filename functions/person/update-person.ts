import { IdParams } from '#shared/dto/common.ts';
import type { PersonResponseDto } from '#shared/dto/v1/person.response.ts';
import { mapPerson } from '#shared/dto/v1/person.response.ts';
import { PersonUpdateDto } from '#shared/dto/v1/person.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updatePerson } from '#shared/services/person/person.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'person.update', returns: returns<PersonResponseDto>(), params: IdParams, body: PersonUpdateDto },
  async ({ auth, params, body }) => mapPerson(await updatePerson(auth, params.id, body)),
);
