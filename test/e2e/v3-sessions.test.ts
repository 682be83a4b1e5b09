import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v3 from '@immich/sdk-v3';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '#shared/core/crypto.ts';
import { db } from '#shared/db/client.ts';
import * as keys from '#shared/db/item-keys.ts';
import { adminWithApiKey } from '../support/sdk.ts';
import { useServer } from '../support/server.ts';

/**
 * What using a session keeps of it, through the server (the local one, or the synthesized stack in
 * the deployed project, whose read-only functions may update session items only as their role
 * allows): the locked folder's unlock kept while in use, and the device it is used from.
 */
describe('a session in use (v3)', () => {
  const server = useServer();
  const email = 'sessions@immich.cloud';
  let token: string;

  beforeAll(async () => {
    await adminWithApiKey(server.baseUrl, email);
    token = (await v3.login({ loginCredentialDto: { email, password: 'password' } }, { baseUrl: server.baseUrl })).accessToken;
  });

  it('keeps the locked folder unlocked five minutes past a request made near its end, from a read-only function too', async () => {
    const me = { baseUrl: server.baseUrl, headers: { authorization: `Bearer ${token}` } };
    await v3.setupPinCode({ pinCodeSetupDto: { pinCode: '123456' } }, me);
    await v3.unlockAuthSession({ sessionUnlockDto: { pinCode: '123456' } }, me);
    // As if the unlock were 14 minutes old: one minute left.
    await db.send(
      new UpdateCommand({
        TableName: process.env.TABLE_NAME,
        Key: keys.session(hashSecret(token)),
        UpdateExpression: 'SET pinExpiresAt = :soon',
        ExpressionAttributeValues: { ':soon': new Date(Date.now() + 60_000).toISOString() },
      }),
    );
    const status = await v3.getAuthStatus(me);
    expect(status.isElevated).toBe(true);
    expect(Date.parse(status.pinExpiresAt ?? '') - Date.now()).toBeGreaterThan(4.9 * 60_000);
  });

  it('names each session by the device that signed in, and again by the app’s newer version, from a read-only function too', async () => {
    const signIn = async (headers: Record<string, string>) => {
      const reply = await fetch(`${server.baseUrl}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ email, password: 'password' }),
      });
      expect(reply.status).toBe(201);
      return ((await reply.json()) as { accessToken: string }).accessToken;
    };
    const browser = await signIn({
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36',
    });
    const phone = await signIn({ 'user-agent': 'immich-android/3.1.0', devicemodel: 'Pixel 8', devicetype: 'Android' });
    const asPhone = { baseUrl: server.baseUrl, headers: { authorization: `Bearer ${phone}`, 'user-agent': 'immich-android/3.1.0' } };
    const phoneId = (await v3.getSessions(asPhone)).find((session) => session.current)?.id;
    const listed = async () => v3.getSessions({ baseUrl: server.baseUrl, headers: { authorization: `Bearer ${browser}` } });
    expect((await listed()).find((session) => session.current)).toMatchObject({
      deviceType: 'Chrome',
      deviceOS: 'Linux',
      appVersion: null,
    });
    expect((await listed()).find((session) => session.id === phoneId)).toMatchObject({
      deviceType: 'Pixel 8',
      deviceOS: 'android',
      appVersion: '3.1.0',
    });
    // The app updated: its next request (a read-only function's) records the new version at once.
    await v3.getAuthStatus({ ...asPhone, headers: { ...asPhone.headers, 'user-agent': 'immich-android/3.2.0' } });
    expect((await listed()).find((session) => session.id === phoneId)).toMatchObject({ deviceOS: 'android', appVersion: '3.2.0' });
  });
});
