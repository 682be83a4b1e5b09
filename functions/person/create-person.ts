import type { PersonResponseDto } from '#shared/dto/v1/person.response.ts';
import { mapPerson } from '#shared/dto/v1/person.response.ts';
import { PersonCreateDto } from '#shared/dto/v1/person.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { createPerson } from '#shared/services/person/person.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'person.create', returns: returns<PersonResponseDto>(), body: PersonCreateDto, status: 201 },
  async ({ auth, body }) => mapPerson(await createPerson(auth, body)),
);
