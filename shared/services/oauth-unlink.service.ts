import { inBatches } from '../core/concurrency.ts';
import { Unauthenticated } from '../core/errors.ts';
import * as userRepo from '../db/user.repository.ts';
import type { Auth, UserRecord } from '../model/user.ts';
import { setOAuthId } from './user/user.service.ts';

/**
 * Unlinking OAuth accounts, apart from shared/services/oauth.service.ts: it needs neither the
 * provider nor the deployment's OAuth secret, so these routes carry neither.
 */

/** POST /oauth/unlink: the caller's account no longer linked to any OAuth account. */
export const unlink = async (auth: Auth): Promise<UserRecord> => {
  const user = await userRepo.get(auth.user.id);
  if (!user) throw new Unauthenticated();
  return setOAuthId(user, '');
};

/**
 * POST /admin/auth/unlink-all (v3, admin): every user unlinked (Immich's AuthAdminService.unlinkAll),
 * each read again and unlinked in their own transaction, with their OAuth guard.
 */
export const unlinkAll = async (): Promise<void> => {
  const linked = (await userRepo.list()).filter((user) => user.oauthId);
  await inBatches(linked, 8, async (listed) => {
    const user = await userRepo.get(listed.id);
    if (user?.oauthId) await setOAuthId(user, '');
  });
};
