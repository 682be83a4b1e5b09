import * as keys from '../item-keys.ts';

/** How long a deletion is kept for the apps' sync: Immich's AUDIT_LOG_MAX_DURATION (100 days). */
const auditRetentionDays = 100;

/** Immich's audit entity types. */
export type AuditEntityType = 'ASSET' | 'ALBUM';

export const auditItem = (ownerId: string, entityType: AuditEntityType, entityId: string, createdAt: string) => ({
  ...keys.audit(ownerId, entityType, createdAt, entityId),
  type: 'audit',
  entityType,
  entityId,
  ownerId,
  action: 'DELETE',
  createdAt,
  // DynamoDB's TTL removes it once Immich's cleanup job would have (reads check it too).
  ttl: Math.ceil(new Date(createdAt).getTime() / 1000) + auditRetentionDays * 86_400,
});
