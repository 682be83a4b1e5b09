import { mapPersonV3, type PersonResponseDto } from '#shared/dto/v3/person.response.ts';
import { PersonCreateDtoV3 } from '#shared/dto/v3/person.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { createPerson } from '#shared/services/person/person.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'person.create',
    returns: returns<PersonResponseDto>(),
    body: PersonCreateDtoV3,
    status: 201,
  },
  async ({ auth, body }) => mapPersonV3(await createPerson(auth, body)),
);
