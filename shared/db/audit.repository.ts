import type { AuditEntityType } from './items/audit.ts';
import * as partitions from './partitions.ts';
import { queryAll } from './query.ts';

export type { AuditEntityType } from './items/audit.ts';

/**
 * The ids of an owner's entities of one type deleted strictly after `after` (Immich's audit
 * `createdAt > since`), each once: one Query of the owner's audit partition from that instant
 * (its sort key is `<createdAt>#<entityId>`), read consistently; expired items are left out.
 */
export const listDeletedSince = async (ownerId: string, entityType: AuditEntityType, after: string): Promise<string[]> => {
  const now = Date.now() / 1000;
  const items = await queryAll(partitions.audit(ownerId, entityType), { from: `${after}#\uffff`, attributes: ['entityId', 'ttl'] });
  return [...new Set(items.filter((item) => typeof item.ttl !== 'number' || item.ttl > now).map((item) => String(item.entityId)))];
};
