import { IdParams } from '#shared/dto/common.ts';
import { mapPerson, type PersonResponseDto } from '#shared/dto/v1/person.response.ts';
import { FaceIdDto } from '#shared/dto/v1/person.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { reassignFaceById } from '#shared/services/person/face-edit.service.ts';

// The path's id is the person; the body's the face (Immich's FaceDto).
export const handler = httpHandler(
  { access: 'user', permission: 'face.update', params: IdParams, body: FaceIdDto, returns: returns<PersonResponseDto>() },
  async ({ auth, params, body }) => mapPerson(await reassignFaceById(auth, params.id, body.id)),
);
