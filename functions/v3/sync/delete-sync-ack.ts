import { SyncAckDeleteBody } from '#shared/dto/v3/sync.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { deleteSyncAcks } from '#shared/services/sync/acks.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'syncCheckpoint.delete', body: SyncAckDeleteBody, returns: returns<void>(), status: 204 },
  ({ auth, body }) => deleteSyncAcks(auth, body.types),
);
