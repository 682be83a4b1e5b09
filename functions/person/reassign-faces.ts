import { IdParams } from '#shared/dto/common.ts';
import { mapPerson, type PersonResponseDto } from '#shared/dto/v1/person.response.ts';
import { AssetFaceUpdateDto } from '#shared/dto/v1/person.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { reassignFaces } from '#shared/services/person/face-edit.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'person.reassign', params: IdParams, body: AssetFaceUpdateDto, returns: returns<PersonResponseDto[]>() },
  async ({ auth, params, body }) => (await reassignFaces(auth, params.id, body.data)).map(mapPerson),
);
