import { IdParams } from '#shared/dto/common.ts';
import { AssetFaceDeleteDto } from '#shared/dto/v3/person.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { deleteFace } from '#shared/services/person/face-edit.service.ts';

// `force` is checked as Immich checks it; here either way the face goes (docs/immich-compatibility.md, "Faces").
export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'face.delete',
    params: IdParams,
    body: AssetFaceDeleteDto,
    returns: returns<void>(),
    status: 204,
  },
  ({ auth, params }) => deleteFace(auth, params.id),
);
