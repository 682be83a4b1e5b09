import { linkUnlocked } from '../access/route.ts';
import { linkSecret } from '../storage/link-secret.ts';
import type { LinkUnlock } from './authenticate.ts';

/** A visitor's tokens against the link's current password, with the deployment's link secret. */
export const unlockLink: LinkUnlock = async (tokens, linkId, passwordHash) =>
  linkUnlocked(await linkSecret(), tokens, linkId, passwordHash);
