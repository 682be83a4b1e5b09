import { Forbidden } from '../core/errors.ts';
import type { Auth, UserRecord } from '../model/user.ts';
import { isElevated } from './elevation.ts';

/**
 * Who may set a password, or move an email, without the current password (PUT /user, PUT
 * /users/me, PUT /admin/users/:id; docs/immich-compatibility.md, "Changing a password or an
 * email"). Never an API key, whatever it holds: a key with `user.update` would otherwise become
 * the whole account (issue 49), and an admin's key with `adminUser.update` any user's, its own
 * included. A session sets its own user's password only once unlocked with the PIN code, or as
 * the first sign-in's change (`shouldChangePassword`, which Immich's web and mobile apps send
 * here); elsewhere POST /auth/change-password takes the current password. Its own email likewise
 * only unlocked: the email is the sign-in name, so a borrowed session must not move it (a user with
 * no PIN code sets one and unlocks, as for the locked folder). An admin's session sets another
 * user's password and email, as Immich's admin page does.
 */
export const requireCredentialProof = (auth: Auth, user: UserRecord, change: { password: boolean; email: boolean }): void => {
  if (!change.password && !change.email) return;
  if (auth.apiKey) {
    throw new Forbidden('An API key cannot change a password or an email; use a session (POST /auth/change-password for the password)');
  }
  if (user.id !== auth.user.id || isElevated(auth)) return;
  if (change.password && !user.shouldChangePassword) {
    throw new Forbidden(
      'Changing the password needs the current password (POST /auth/change-password) or a session unlocked with the PIN code',
    );
  }
  if (change.email) throw new Forbidden('Changing the email needs a session unlocked with the PIN code');
};
