import { PersonSearchDto } from '#shared/dto/v1/person.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { PeopleResponseDto } from '#shared/services/person.service.ts';
import { getAllPeople } from '#shared/services/person.service.ts';

export const handler = httpHandler({ access: 'user', returns: returns<PeopleResponseDto>(), query: PersonSearchDto }, ({ auth, query }) =>
  getAllPeople(auth, query.withHidden ?? false),
);
