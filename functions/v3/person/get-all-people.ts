import { mapPeopleV3, type PeopleResponseDto } from '#shared/dto/v3/person.response.ts';
import { PersonSearchDtoV3 } from '#shared/dto/v3/person.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAllPeople } from '#shared/services/person/person.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'person.read', returns: returns<PeopleResponseDto>(), query: PersonSearchDtoV3 },
  async ({ auth, query }) => mapPeopleV3(await getAllPeople(auth, query.withHidden ?? false, { page: query.page, size: query.size })),
);
