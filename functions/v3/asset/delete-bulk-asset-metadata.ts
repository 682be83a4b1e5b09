import { AssetMetadataBulkDeleteDto } from '#shared/dto/v3/asset-metadata.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { deleteBulkMetadata } from '#shared/services/asset-metadata.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'asset.update',
    body: AssetMetadataBulkDeleteDto,
    returns: returns<void>(),
    status: 204,
  },
  ({ auth, body }) => deleteBulkMetadata(auth, body.items),
);
