import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { removePhotoEdits } from '#shared/services/photo-edit.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'asset.edit.delete', params: IdParams, returns: returns<void>(), status: 204 },
  ({ auth, params }) => removePhotoEdits(auth, params.id),
);
