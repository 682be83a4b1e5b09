import type { BulkIdResponseDto } from '#shared/dto/common/album.response.ts';
import { PeopleUpdateDtoV3 } from '#shared/dto/v3/person.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updatePeople } from '#shared/services/person/person.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'person.update', returns: returns<BulkIdResponseDto[]>(), body: PeopleUpdateDtoV3 },
  ({ auth, body }) => updatePeople(auth, body.people),
);
