import { IdParams } from '#shared/dto/common.ts';
import { type AssetFaceResponseDto, mapAssetFace } from '#shared/dto/v1/person.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAssetFaces } from '#shared/services/person/face.service.ts';

// `?id=` is the asset's (Immich's FaceDto).
export const handler = httpHandler(
  { access: 'user', permission: 'face.read', query: IdParams, returns: returns<AssetFaceResponseDto[]>() },
  async ({ auth, query }) => (await getAssetFaces(auth, query.id)).map(mapAssetFace),
);
