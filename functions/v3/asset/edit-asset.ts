import { IdParams } from '#shared/dto/common.ts';
import { AssetEditsCreateDto, type AssetEditsResponseDto, mapPhotoEdits } from '#shared/dto/v3/photo-edits.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { editPhoto } from '#shared/services/photo-edit.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'asset.edit.create',
    params: IdParams,
    body: AssetEditsCreateDto,
    returns: returns<AssetEditsResponseDto>(),
  },
  async ({ auth, params, body }) => mapPhotoEdits(params.id, await editPhoto(auth, params.id, body.edits)),
);
