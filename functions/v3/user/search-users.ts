import { mapUserV3, type UserResponseDto } from '#shared/dto/v3/user.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { readConfig } from '#shared/services/config.reader.ts';
import { searchUsers } from '#shared/services/user/user.service.ts';

// The apps' list to share albums and partners with; the configuration's `server.publicUsers` says
// whether a user sees everyone or only themselves.
export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'user.read', returns: returns<UserResponseDto[]>() },
  async ({ auth }) => {
    const { server } = await readConfig();
    return (await searchUsers(auth, server.publicUsers)).map(mapUserV3);
  },
);
