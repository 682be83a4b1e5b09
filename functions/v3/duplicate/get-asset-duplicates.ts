import { type DuplicateResponseDto, mapDuplicate } from '#shared/dto/v3/duplicate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getDuplicates } from '#shared/services/duplicate.service.ts';

// The caller's duplicate groups (docs/immich-compatibility.md, "Duplicates").
export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'duplicate.read', returns: returns<DuplicateResponseDto[]>() },
  async ({ auth }) => (await getDuplicates(auth)).map((view) => mapDuplicate(view, auth.user.id)),
);
