import { AssetIdsDto } from '#shared/dto/v1/download.ts';
import { fileResponse } from '#shared/http/files.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { RawResponse } from '#shared/http/response.ts';
import { sharedHandler } from '#shared/http/shared-handler.ts';
import { deliverArchive, downloadArchive } from '#shared/services/download/archive.service.ts';

// The zip is written to the store as it is made, then answered like any file (deployed: a 302 to S3).
// A shared-link route too (Immich's): a visitor downloads what their link shows, if it allows downloads.
export const handler = sharedHandler(
  { access: 'shared', permission: 'asset.download', returns: returns<RawResponse>(), body: AssetIdsDto, status: 200 },
  async ({ auth, body, event }) => {
    const file = await downloadArchive(auth, body.assetIds);
    return fileResponse(file, await deliverArchive(file), event);
  },
);
