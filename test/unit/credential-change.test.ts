import { describe, expect, it } from 'vitest';
import { requireCredentialProof } from '#shared/access/credential-change.ts';
import type { Auth } from '#shared/model/user.ts';
import { userRecord } from '../support/records.ts';

/**
 * Who may set a password or move an email without the current password (issue 49, High 3;
 * docs/immich-compatibility.md, "Changing a password or an email"), the rule alone. The handler
 * tests (test/functions/credential-changes.test.ts) prove each route asks it, and what follows a
 * change (the other sessions ended).
 */

const user = userRecord({ email: 'someone@immich.cloud' });
const admin = userRecord({ email: 'admin@immich.cloud', isAdmin: true });
const session = (of = user, extra: Partial<Auth> = {}): Auth => ({
  user: { id: of.id, email: of.email, isAdmin: of.isAdmin },
  sessionHash: 'hash',
  sessionId: 'session',
  ...extra,
});
const unlocked = (of = user) => session(of, { elevatedUntil: '2999-01-01T00:00:00.000Z' });
const apiKey = (of = user, permissions: string[] = ['all']): Auth => ({
  user: { id: of.id, email: of.email, isAdmin: of.isAdmin },
  apiKey: { id: 'key', permissions },
});

const password = { password: true, email: false };
const email = { password: false, email: true };
const both = { password: true, email: true };
const nothing = { password: false, email: false };

describe('requireCredentialProof', () => {
  it('lets anyone change what is not a credential, an API key too', () => {
    for (const auth of [session(), apiKey(), apiKey(admin), session(admin)])
      expect(() => requireCredentialProof(auth, user, nothing)).not.toThrow();
  });

  it('refuses an API key a password or an email, whatever it holds and whoever it is of', () => {
    for (const auth of [apiKey(user, ['user.update']), apiKey(user, ['all']), apiKey(admin, ['adminUser.update', 'user.update'])])
      for (const change of [password, email, both]) {
        expect(() => requireCredentialProof(auth, user, change)).toThrow(/An API key cannot change a password or an email/);
        expect(() => requireCredentialProof(auth, userRecord({ ...user, shouldChangePassword: true }), change)).toThrow(/API key/);
      }
    // An admin's key, not even for the admin's own.
    expect(() => requireCredentialProof(apiKey(admin), admin, password)).toThrow(/API key/);
  });

  it('refuses a session that is not unlocked its own password (but the first sign-in’s change) and its own email', () => {
    expect(() => requireCredentialProof(session(), user, password)).toThrow(
      'Changing the password needs the current password (POST /auth/change-password) or a session unlocked with the PIN code',
    );
    expect(() => requireCredentialProof(session(), user, email)).toThrow('Changing the email needs a session unlocked with the PIN code');
    expect(() => requireCredentialProof(session(), user, both)).toThrow(/Changing the password/);
    const firstSignIn = userRecord({ ...user, shouldChangePassword: true });
    expect(() => requireCredentialProof(session(), firstSignIn, password)).not.toThrow();
    // The first sign-in's change is the password's only: the email still needs the PIN code.
    expect(() => requireCredentialProof(session(), firstSignIn, both)).toThrow(/Changing the email/);
    // An admin's own, likewise.
    expect(() => requireCredentialProof(session(admin), admin, password)).toThrow(/Changing the password/);
  });

  it('lets a session unlocked with the PIN code change its own password and email', () => {
    for (const change of [password, email, both]) {
      expect(() => requireCredentialProof(unlocked(), user, change)).not.toThrow();
      expect(() => requireCredentialProof(unlocked(admin), admin, change)).not.toThrow();
    }
  });

  it("lets a session change another user's password and email (the admin's page; the routes check who may update whom)", () => {
    for (const change of [password, email, both]) expect(() => requireCredentialProof(session(admin), user, change)).not.toThrow();
  });
});
