import { Forbidden } from '../core/errors.ts';
import type { Auth, UserRecord } from '../model/user.ts';
import { isElevated } from './access.ts';

/**
 * Who may set a password, or move an email, without the current password (PUT /user, PUT
 * /users/me, PUT /admin/users/:id; docs/immich-compatibility.md, "Changing a password or an
 * email"). Never an API key, whatever it holds: a key with `user.update` would otherwise become
 * the whole account (issue 49), and an admin's key with `adminUser.update` any user's, its own
 * included. A session sets its own user's password only once unlocked with the PIN code, or as
 * the first sign-in's change (`shouldChangePassword`, which Immich's web and mobile apps send
 * here); elsewhere POST /auth/change-password takes the current password. An admin's session
 * sets another user's password, as Immich's admin page does. An email alone signs nobody in (no
 * OAuth here), so a session changes its own, as the web app's profile page does.
 */
export const requireCredentialProof = (auth: Auth, user: UserRecord, change: { password: boolean; email: boolean }): void => {
  if (!change.password && !change.email) return;
  if (auth.apiKey) {
    throw new Forbidden('An API key cannot change a password or an email; use a session (POST /auth/change-password for the password)');
  }
  if (change.password && user.id === auth.user.id && !isElevated(auth) && !user.shouldChangePassword) {
    throw new Forbidden(
      'Changing the password needs the current password (POST /auth/change-password) or a session unlocked with the PIN code',
    );
  }
};
