import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { setOnboarding } from '#shared/services/user/user.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'userOnboarding.delete', returns: returns<void>(), status: 204 },
  async ({ auth }) => {
    await setOnboarding(auth, false);
  },
);
