import { SyncAckSetBody } from '#shared/dto/v3/sync.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { setSyncAcks } from '#shared/services/sync/acks.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'syncCheckpoint.update', body: SyncAckSetBody, returns: returns<void>(), status: 204 },
  ({ auth, body }) => setSyncAcks(auth, body.acks),
);
