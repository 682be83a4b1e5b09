import { DuplicateResolveDto } from '#shared/dto/v3/duplicate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { ResolveResult } from '#shared/model/duplicate.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { resolveDuplicates } from '#shared/services/duplicate.service.ts';

// Immich answers 200 with a result per group.
export const handler = httpHandler(
  {
    publish,
    generation: 'v3',
    access: 'user',
    permission: 'duplicate.delete',
    body: DuplicateResolveDto,
    returns: returns<ResolveResult[]>(),
    status: 200,
  },
  ({ auth, body }) => resolveDuplicates(auth, body),
);
