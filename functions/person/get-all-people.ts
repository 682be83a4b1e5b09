import { mapPeople, type PeopleResponseDto } from '#shared/dto/v1/person.response.ts';
import { PersonSearchDto } from '#shared/dto/v1/person.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAllPeople } from '#shared/services/person/person.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'person.read', returns: returns<PeopleResponseDto>(), query: PersonSearchDto },
  async ({ auth, query }) => mapPeople(await getAllPeople(auth, query.withHidden ?? false)),
);
