import { mapUserConfig, type UserConfigDto } from '#shared/dto/v3/system-config.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { readOAuthConfig } from '#shared/services/oauth-config.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'userConfig.read', returns: returns<UserConfigDto>() },
  async () => mapUserConfig(await readOAuthConfig()),
);
