import { putWrite, type Write } from '../transact.ts';
import { type AuditEntityType, auditItem } from './audit.ts';

/** The auditWrites of ./audit.ts (one export each: imported as a namespace, so a bundle carries only those used). */
/** Records a deletion, in the same transaction as the deletion itself. */
export const deleted = (ownerId: string, entityType: AuditEntityType, entityId: string, at = new Date().toISOString()): Write =>
  putWrite(auditItem(ownerId, entityType, entityId, at));
