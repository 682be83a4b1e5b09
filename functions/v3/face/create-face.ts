import { AssetFaceCreateDto } from '#shared/dto/v3/person.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { createFace } from '#shared/services/person/face-edit.service.ts';

// 201 with no body, as Immich's.
export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'face.create', body: AssetFaceCreateDto, returns: returns<void>(), status: 201 },
  ({ auth, body }) => createFace(auth, body),
);
