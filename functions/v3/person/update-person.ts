import { IdParams } from '#shared/dto/common.ts';
import { mapPersonV3, type PersonResponseDto } from '#shared/dto/v3/person.response.ts';
import { PersonUpdateDtoV3 } from '#shared/dto/v3/person.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updatePerson } from '#shared/services/person/person.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'person.update',
    returns: returns<PersonResponseDto>(),
    params: IdParams,
    body: PersonUpdateDtoV3,
  },
  async ({ auth, params, body }) => mapPersonV3(await updatePerson(auth, params.id, body)),
);
