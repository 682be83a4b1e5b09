import type { BulkIdResponseDto } from '#shared/dto/common/album.response.ts';
import { PeopleUpdateDto } from '#shared/dto/v1/person.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updatePeople } from '#shared/services/person/person.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'person.update', returns: returns<BulkIdResponseDto[]>(), body: PeopleUpdateDto },
  ({ auth, body }) => updatePeople(auth, body.people),
);
