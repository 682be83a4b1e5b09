import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAuthDevices } from '#functions/auth/get-auth-devices.ts';
import { handler as loginHandler } from '#functions/auth/login.ts';
import { handler as getMyUserInfo } from '#functions/user/get-my-user-info.ts';
import { handler as getAuthStatus } from '#functions/v3/auth/get-auth-status.ts';
import { handler as createSession } from '#functions/v3/session/create-session.ts';
import { handler as getSessions } from '#functions/v3/session/get-sessions.ts';
import { handler as updateSession } from '#functions/v3/session/update-session.ts';
import { hashSecret } from '#shared/core/crypto.ts';
import { db } from '#shared/db/client.ts';
import * as keys from '#shared/db/item-keys.ts';
import { bearer, createApiKey, createUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';

const chromeLinux = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36';
const firefoxWindows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0';
const safariMac = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Safari/605.1.15';
const iphoneSafari =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1';
const androidChrome = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
const credentials = { email: 'devices-ua@immich.cloud', password: 'password-ua' };
beforeAll(async () => {
  accounts = await setupAccounts();
  await createUser(accounts.admin.accessToken, { ...credentials, name: 'Devices' });
});

/** Signs in as a client does: its User-Agent, and the mobile app's device headers when it sends them. */
const signIn = async (headers: Record<string, string>) => {
  const reply = await invoke(loginHandler, { method: 'POST', path: '/api/auth/login', headers, body: credentials });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.accessToken as string;
};
/** The sessions list as `token`'s own client asks for it (its User-Agent: a request naming another app version refreshes the session). */
const sessionsSeenBy = async (token: string, userAgent = '') =>
  (await invoke(getSessions, { path: '/api/sessions', headers: { ...bearer(token), 'user-agent': userAgent } })).body as {
    id: string;
    current: boolean;
    deviceType: string;
    deviceOS: string;
    appVersion: string | null;
    updatedAt: string;
  }[];
const current = async (token: string, userAgent = '') => (await sessionsSeenBy(token, userAgent)).find((session) => session.current);
/** As if the session were last refreshed this long ago. */
const lastUsed = (token: string, msAgo: number) =>
  db.send(
    new UpdateCommand({
      TableName: process.env.TABLE_NAME,
      Key: keys.session(hashSecret(token)),
      UpdateExpression: 'SET updatedAt = :at',
      ExpressionAttributeValues: { ':at': new Date(Date.now() - msAgo).toISOString() },
    }),
  );

describe('sessions named by the device that signed in, as Immich names them', () => {
  it.each([
    ['Chrome on Linux', { 'user-agent': chromeLinux }, 'Chrome', 'Linux', null],
    ['Firefox on Windows', { 'user-agent': firefoxWindows }, 'Firefox', 'Windows', null],
    ['Safari on macOS', { 'user-agent': safariMac }, 'Safari', 'macOS', null],
    ['Safari on an iPhone', { 'user-agent': iphoneSafari }, 'Mobile Safari', 'iOS', null],
    ['Chrome on Android', { 'user-agent': androidChrome }, 'Mobile Chrome', 'Android', null],
    // The 3.x apps' login form sends deviceModel and deviceType beside their own User-Agent.
    [
      'the Android app',
      { 'user-agent': 'immich-android/3.1.0', devicemodel: 'Pixel 8', devicetype: 'Android' },
      'Pixel 8',
      'android',
      '3.1.0',
    ],
    ['the iOS app', { 'user-agent': 'immich-ios/3.1.0', devicemodel: 'iPhone16,2', devicetype: 'iOS' }, 'iPhone16,2', 'iOS', '3.1.0'],
    ['the CLI', { 'user-agent': 'node' }, '', '', null],
    ['curl', { 'user-agent': 'curl/8.5.0' }, '', '', null],
  ])('%s', async (_who, headers, deviceType, deviceOS, appVersion) => {
    const token = await signIn(headers);
    // Asked by the same client (the apps send their device headers only from the login form).
    const userAgent = headers['user-agent'];
    expect(await current(token, userAgent)).toMatchObject({ deviceType, deviceOS, appVersion });
    // v1.100's list names it the same way.
    const v1 = (await invoke(getAuthDevices, { path: '/api/auth/devices', headers: { ...bearer(token), 'user-agent': userAgent } })).body;
    expect(v1.find((device: { current: boolean }) => device.current)).toMatchObject({ deviceType, deviceOS });
  });

  it('takes the model header as the type and the type header as the OS, as Immich does, when the User-Agent names neither', async () => {
    const token = await signIn({ 'user-agent': 'Dart/3.5 (dart:io)', devicemodel: 'Pixel 8', devicetype: 'Android' });
    expect(await current(token)).toMatchObject({ deviceType: 'Pixel 8', deviceOS: 'Android' });
  });
});

describe('a session’s device refreshed as it is used, as Immich refreshes it', () => {
  it('records the device and time of a request more than an hour after the last, from any route; not within the hour', async () => {
    const token = await signIn({ 'user-agent': chromeLinux });
    const me = (userAgent: string) =>
      invoke(getMyUserInfo, { path: '/api/user/me', headers: { ...bearer(token), 'user-agent': userAgent } });
    // Within the hour another browser's request changes nothing.
    const before = await current(token);
    expect((await me(firefoxWindows)).status).toBe(200);
    expect(await current(token)).toMatchObject({ deviceType: 'Chrome', deviceOS: 'Linux', updatedAt: before?.updatedAt });
    // Past it, the next request's device and time are recorded.
    await lastUsed(token, 61 * 60_000);
    const started = Date.now();
    expect((await me(firefoxWindows)).status).toBe(200);
    const refreshed = await current(token);
    expect(refreshed).toMatchObject({ deviceType: 'Firefox', deviceOS: 'Windows', appVersion: null });
    expect(Date.parse(refreshed?.updatedAt ?? '')).toBeGreaterThanOrEqual(started - 1000);
  });

  it('records a request naming another app version at once (the app updated), and the "last seen" order follows', async () => {
    const older = await signIn({ 'user-agent': chromeLinux });
    const app = await signIn({ 'user-agent': 'immich-ios/3.1.0', devicemodel: 'iPhone16,2', devicetype: 'iOS' });
    await lastUsed(app, 10 * 60_000);
    expect(
      (await invoke(getAuthStatus, { path: '/api/auth/status', headers: { ...bearer(app), 'user-agent': 'immich-ios/3.2.0' } })).status,
    ).toBe(200);
    // Without the login form's headers the iOS app names nothing but its version, as in Immich.
    const listed = await sessionsSeenBy(older);
    expect(listed[0]).toMatchObject({ current: false, deviceType: '', deviceOS: '', appVersion: '3.2.0' });
    // The same version again within the hour: nothing written.
    const seen = listed[0]?.updatedAt;
    await invoke(getAuthStatus, { path: '/api/auth/status', headers: { ...bearer(app), 'user-agent': 'immich-ios/3.2.0' } });
    expect((await sessionsSeenBy(older))[0]?.updatedAt).toBe(seen);
  });

  it('keeps a Cast session’s names until it is used past the hour; PUT /sessions answers the names the list shows', async () => {
    const token = await signIn({ 'user-agent': chromeLinux });
    const cast = await invoke(createSession, {
      method: 'POST',
      path: '/api/sessions',
      headers: bearer(token),
      body: { deviceType: 'Cast', deviceOS: 'Google Cast', duration: 7200 },
    });
    expect(cast.body).toMatchObject({ deviceType: 'Cast', deviceOS: 'Google Cast', appVersion: null });
    const receiver =
      'Mozilla/5.0 (X11; Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 CrKey/1.56.500000';
    const asReceiver = () =>
      invoke(getMyUserInfo, { path: '/api/user/me', query: { sessionKey: cast.body.token }, headers: { 'user-agent': receiver } });
    expect((await asReceiver()).status).toBe(200);
    const castListed = async () => (await sessionsSeenBy(token)).find((session) => session.id === cast.body.id);
    expect(await castListed()).toMatchObject({ deviceType: 'Cast', deviceOS: 'Google Cast' });
    await lastUsed(cast.body.token, 61 * 60_000);
    expect((await asReceiver()).status).toBe(200);
    expect(await castListed()).toMatchObject({ deviceType: 'Chrome', deviceOS: 'Chromecast Linux' });
    const mine = (await current(token))?.id ?? '';
    const updated = await invoke(updateSession, {
      method: 'PUT',
      path: `/api/sessions/${mine}`,
      pathParameters: { id: mine },
      headers: bearer(token),
      body: { isPendingSyncReset: false },
    });
    expect(updated.body).toMatchObject({ id: mine, deviceType: 'Chrome', deviceOS: 'Linux', current: true });
  });

  it('never for an API key (it has no session)', async () => {
    const token = await signIn({ 'user-agent': chromeLinux });
    const key = (await createApiKey(token, 'devices')).secret;
    const id = (await current(token, chromeLinux))?.id;
    await lastUsed(token, 61 * 60_000);
    expect(
      (await invoke(getMyUserInfo, { path: '/api/user/me', headers: { 'x-api-key': key, 'user-agent': firefoxWindows } })).status,
    ).toBe(200);
    // Read through another session, so that this read refreshes nothing of the one looked at.
    const other = await signIn({ 'user-agent': safariMac });
    const listed = (await sessionsSeenBy(other, safariMac)).find((session) => session.id === id);
    expect(listed).toMatchObject({ deviceType: 'Chrome', deviceOS: 'Linux' });
    expect(Date.now() - Date.parse(listed?.updatedAt ?? '')).toBeGreaterThan(60 * 60_000);
  });
});
