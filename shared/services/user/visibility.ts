import { connectedTo, seesAllUsers } from '../../access/user-access.ts';
import { NotFound } from '../../core/errors.ts';
import type { Auth, UserRecord } from '../../model/user.ts';
import { getUserById } from './user.service.ts';

// Its own module: only the routes that read one user by id bundle the partner and album reads.

/**
 * GET /user/info/:id and GET /users/:id: any user (not deleted) when the configuration's
 * `server.publicUsers` is on or the caller is an admin; else only a user connected to the caller
 * (shared/access/user-access.ts), any other answered as a missing one (docs/immich-compatibility.md,
 * "Users a user sees").
 */
export const getVisibleUser = async (auth: Auth, id: string, publicUsers: boolean): Promise<UserRecord> => {
  if (!seesAllUsers(auth, publicUsers) && !(await connectedTo(auth, id))) throw new NotFound('User not found');
  return await getUserById(id);
};
