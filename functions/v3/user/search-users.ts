import { mapUserV3, type UserResponseDto } from '#shared/dto/v3/user.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { searchUsers } from '#shared/services/user.service.ts';

// The apps' list to share albums and partners with.
export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'user.read', returns: returns<UserResponseDto[]>() },
  async () => (await searchUsers()).map(mapUserV3),
);
