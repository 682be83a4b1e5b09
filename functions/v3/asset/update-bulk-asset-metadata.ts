import { type AssetMetadataBulkResponseDto, mapBulkAssetMetadata } from '#shared/dto/v3/asset-metadata.response.ts';
import { AssetMetadataBulkUpsertDto } from '#shared/dto/v3/asset-metadata.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { jsonAnswer, requireAnswerFits } from '#shared/http/json-answer.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { RawResponse } from '#shared/http/response.ts';
import { upsertBulkMetadata } from '#shared/services/asset-metadata.service.ts';

// The answer echoes every item (the iOS app sends 20,000): gzip-compressed when large (shared/http/json-answer.ts).
export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'asset.update',
    body: AssetMetadataBulkUpsertDto,
    returns: returns<RawResponse>(),
  },
  async ({ auth, body, event }) => {
    const updatedAt = new Date().toISOString();
    requireAnswerFits(event, () => body.items.map((item) => mapBulkAssetMetadata({ ...item, ownerId: auth.user.id, updatedAt })));
    const written = await upsertBulkMetadata(auth, body.items);
    return jsonAnswer<AssetMetadataBulkResponseDto[]>(event, written.map(mapBulkAssetMetadata));
  },
);
