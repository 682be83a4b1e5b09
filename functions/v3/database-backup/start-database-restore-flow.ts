import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { startDatabaseRestoreFlow } from '#shared/services/database-restore.service.ts';

// Immich's needs no caller: it is for a server with no admin yet.
export const handler = publicHandler({ generation: 'v3', returns: returns<never>(), status: 201 }, () => startDatabaseRestoreFlow());
