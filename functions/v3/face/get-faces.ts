import { type AssetFaceResponseDto, mapAssetFaceV3 } from '#shared/dto/v3/person.response.ts';
import { FaceDto } from '#shared/dto/v3/person.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAssetFaces } from '#shared/services/person/face.service.ts';

// `?id=` is the asset's (Immich's FaceDto).
export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'face.read', query: FaceDto, returns: returns<AssetFaceResponseDto[]>() },
  async ({ auth, query }) => (await getAssetFaces(auth, query.id)).map(mapAssetFaceV3),
);
