import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { PersonResponseDto } from '#shared/mappers/person.mapper.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { PersonUpdateDto } from '#shared/schemas/person.ts';
import { updatePerson } from '#shared/services/person.service.ts';

export const handler = httpHandler(
  { access: 'user', returns: returns<PersonResponseDto>(), params: IdParams, body: PersonUpdateDto },
  ({ auth, params, body }) => updatePerson(auth, params.id, body),
);
