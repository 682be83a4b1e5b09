import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { noneHere } from '#shared/services/absent-features.service.ts';

// None here (shared/services/absent-features.service.ts); the query's filters find nothing in nothing.
export const handler = httpHandler({ generation: 'v3', access: 'user', permission: 'workflow.read', returns: returns<never[]>() }, () =>
  noneHere(),
);
