import type { SyncAckDto } from '#shared/dto/v3/sync.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getSyncAcks } from '#shared/services/sync/acks.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'syncCheckpoint.read', returns: returns<SyncAckDto[]>() },
  ({ auth }) => getSyncAcks(auth),
);
