import { AssetBulkUpdateDto } from '#shared/dto/v1/asset.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { updateAssets } from '#shared/services/asset.service.ts';
import { stackUnderParent, unstackAssets } from '#shared/services/stack.service.ts';

export const handler = httpHandler(
  { publish, access: 'user', permission: 'asset.update', returns: returns<void>(), body: AssetBulkUpdateDto, status: 204 },
  async ({ auth, body }) => {
    // v1.100's stacks, as its updateAll: out of their stacks, or under a parent; first, so that a
    // refused stack leaves the other edits unmade too.
    if (body.removeParent) await unstackAssets(auth, body.ids);
    else if (body.stackParentId) await stackUnderParent(auth, body.stackParentId, body.ids);
    await updateAssets(auth, body.ids, body);
  },
);
