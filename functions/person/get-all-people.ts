import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { PersonSearchDto } from '#shared/schemas/person.ts';
import type { PeopleResponseDto } from '#shared/services/person.service.ts';
import { getAllPeople } from '#shared/services/person.service.ts';

export const handler = httpHandler({ access: 'user', returns: returns<PeopleResponseDto>(), query: PersonSearchDto }, ({ auth, query }) =>
  getAllPeople(auth, query.withHidden ?? false),
);
