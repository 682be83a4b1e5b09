import { IdParams } from '#shared/dto/common.ts';
import { type AssetEditsResponseDto, mapPhotoEdits } from '#shared/dto/v3/photo-edits.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getPhotoEdits } from '#shared/services/photo-edit.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'asset.edit.get', params: IdParams, returns: returns<AssetEditsResponseDto>() },
  async ({ auth, params }) => mapPhotoEdits(params.id, await getPhotoEdits(auth, params.id)),
);
