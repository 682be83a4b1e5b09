import { createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteServerLicense } from '#functions/v3/server/delete-server-license.ts';
import { handler as getAboutInfo } from '#functions/v3/server/get-about-info.ts';
import { handler as getServerLicense } from '#functions/v3/server/get-server-license.ts';
import { handler as setServerLicense } from '#functions/v3/server/set-server-license.ts';
import { handler as deleteUserLicense } from '#functions/v3/user/delete-user-license.ts';
import { handler as getMyUser } from '#functions/v3/user/get-my-user.ts';
import { handler as getUserLicense } from '#functions/v3/user/get-user-license.ts';
import { handler as setUserLicense } from '#functions/v3/user/set-user-license.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { sendAcks, syncStream } from '../support/sync-client.ts';

// A key pair of the test's own stands in for Immich's: the server verifies whatever public keys it is given.
const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicKeyOf = (key: KeyObject) => Buffer.from(key.export({ type: 'spki', format: 'pem' })).toString('base64');
const sign = (licenseKey: string, privateKey: KeyObject) => createSign('SHA256').update(licenseKey).sign(privateKey, 'base64');
const server = pair();
const client = pair();
const serverKey = 'IMSV-AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GGGG-HHHH';
const clientKey = 'IMCL-1111-2222-3333-4444-5555-6666-7777-8888';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});
const configure = () =>
  Object.assign(process.env, {
    LICENSE_PUBLIC_KEY_SERVER: publicKeyOf(server.publicKey),
    LICENSE_PUBLIC_KEY_CLIENT: publicKeyOf(client.publicKey),
  });
afterEach(() => {
  delete process.env.LICENSE_PUBLIC_KEY_SERVER;
  delete process.env.LICENSE_PUBLIC_KEY_CLIENT;
});

const setServer = (token: string, body: unknown) =>
  invoke(setServerLicense, { method: 'PUT', path: '/api/server/license', headers: bearer(token), body });
const setUser = (token: string, body: unknown) =>
  invoke(setUserLicense, { method: 'PUT', path: '/api/users/me/license', headers: bearer(token), body });

describe('product keys (v3): the server’s and each user’s, verified under the public keys the deployment was given', () => {
  it('activates a genuine server key, shows it licensed, and deletes it; refuses any other', async () => {
    configure();
    const admin = accounts.admin.accessToken;
    expect((await invoke(getServerLicense, { path: '/api/server/license', headers: bearer(admin) })).status).toBe(404);
    const activationKey = sign(serverKey, server.privateKey);
    // A client key, one signed by another key, or a malformed one: Immich's answers.
    expect(await setServer(admin, { licenseKey: clientKey, activationKey: sign(clientKey, client.privateKey) })).toMatchObject({
      status: 400,
      body: { message: 'Invalid license key' },
    });
    expect((await setServer(admin, { licenseKey: serverKey, activationKey: sign(serverKey, client.privateKey) })).body.message).toBe(
      'Invalid license key',
    );
    expect((await setServer(admin, { licenseKey: 'IMSV-1234', activationKey })).body).toMatchObject({ message: 'Validation failed' });
    expect((await setServer(accounts.user1.accessToken, { licenseKey: serverKey, activationKey })).status).toBe(403);

    const set = await setServer(admin, { licenseKey: serverKey, activationKey });
    expect(set).toMatchObject({ status: 200, body: { licenseKey: serverKey, activationKey } });
    expect(Date.parse(set.body.activatedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await invoke(getServerLicense, { path: '/api/server/license', headers: bearer(admin) })).body).toEqual(set.body);
    expect((await invoke(getAboutInfo, { path: '/api/server/about', headers: bearer(accounts.user1.accessToken) })).body.licensed).toBe(
      true,
    );

    expect((await invoke(deleteServerLicense, { method: 'DELETE', path: '/api/server/license', headers: bearer(admin) })).status).toBe(204);
    expect((await invoke(getServerLicense, { path: '/api/server/license', headers: bearer(admin) })).status).toBe(404);
    expect((await invoke(getAboutInfo, { path: '/api/server/about', headers: bearer(admin) })).body.licensed).toBe(false);
  });

  it('accepts no key at all when no public key was given', async () => {
    const activationKey = sign(serverKey, server.privateKey);
    expect((await setServer(accounts.admin.accessToken, { licenseKey: serverKey, activationKey })).body.message).toBe(
      'Invalid license key',
    );
    expect((await setUser(accounts.user1.accessToken, { licenseKey: serverKey, activationKey })).body.message).toBe('Invalid license key');
  });

  it('activates a user’s client or server key as their own, shows it on them and syncs it, and removes it', async () => {
    configure();
    const user = await freshUser(accounts.admin.accessToken, 'Supporter');
    const token = user.accessToken;
    expect((await invoke(getUserLicense, { path: '/api/users/me/license', headers: bearer(token) })).status).toBe(404);
    expect((await setUser(token, { licenseKey: clientKey, activationKey: sign(clientKey, server.privateKey) })).status).toBe(200);
    const set = await setUser(token, { licenseKey: clientKey, activationKey: sign(clientKey, client.privateKey) });
    expect(set).toMatchObject({ status: 200, body: { licenseKey: clientKey } });
    expect((await invoke(getUserLicense, { path: '/api/users/me/license', headers: bearer(token) })).body).toEqual(set.body);
    expect((await invoke(getMyUser, { path: '/api/users/me', headers: bearer(token) })).body.license).toEqual(set.body);
    // Someone else's stays theirs.
    expect((await invoke(getUserLicense, { path: '/api/users/me/license', headers: bearer(accounts.user2.accessToken) })).status).toBe(404);
    expect((await setUser(token, { licenseKey: 'IMXX-1111-2222-3333-4444-5555-6666-7777-8888', activationKey: 'x' })).status).toBe(400);

    // The app's sync stream carries it as user metadata, and its removal as a deletion.
    const first = await syncStream(token, { types: ['UserMetadataV1'] });
    const row = first.lines.find((line) => line.type === 'UserMetadataV1' && line.data.key === 'license');
    expect(row?.data).toEqual({ userId: user.id, key: 'license', value: set.body });
    await sendAcks(
      token,
      first.lines.map((line) => line.ack),
    );
    expect((await invoke(deleteUserLicense, { method: 'DELETE', path: '/api/users/me/license', headers: bearer(token) })).status).toBe(204);
    expect((await invoke(getUserLicense, { path: '/api/users/me/license', headers: bearer(token) })).status).toBe(404);
    const next = await syncStream(token, { types: ['UserMetadataV1'] });
    expect(next.lines.filter((line) => line.type === 'UserMetadataDeleteV1').map((line) => line.data)).toEqual([
      { userId: user.id, key: 'license' },
    ]);
    expect(next.lines.some((line) => line.type === 'UserMetadataV1' && line.data.key === 'license')).toBe(false);
  });
});
