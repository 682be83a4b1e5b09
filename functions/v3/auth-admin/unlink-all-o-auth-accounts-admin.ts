import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { unlinkAll } from '#shared/services/oauth-unlink.service.ts';

/** v3's `POST /admin/auth/unlink-all` (admin): every user unlinked from their OAuth account. */
export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'adminAuth.unlinkAll', returns: returns<void>(), status: 204 },
  async () => {
    await unlinkAll();
  },
);
