import { IdParams } from '#shared/dto/common.ts';
import { mapPersonV3, type PersonResponseDto } from '#shared/dto/v3/person.response.ts';
import { AssetFaceUpdateDto } from '#shared/dto/v3/person.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { reassignFaces } from '#shared/services/person/face-edit.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'person.reassign',
    params: IdParams,
    body: AssetFaceUpdateDto,
    returns: returns<PersonResponseDto[]>(),
  },
  async ({ auth, params, body }) => (await reassignFaces(auth, params.id, body.data)).map(mapPersonV3),
);
