/**
 * POST /admin/database-backups/start-restore: Immich's check that no admin exists yet (the flow is
 * for a fresh server), then the refusal of maintenance mode (absent-features.service.ts). Apart
 * from it so the maintenance routes that need no table do not bundle one.
 */
import { Invalid } from '../core/errors.ts';
import * as systemRepo from '../db/system.repository.ts';
import { noMaintenanceMode } from './absent-features.service.ts';

export const startDatabaseRestoreFlow = async (): Promise<never> => {
  if (await systemRepo.hasAdmin()) throw new Invalid('The server already has an admin');
  return noMaintenanceMode();
};
