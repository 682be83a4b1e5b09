import { beforeAll, describe, expect, it } from 'vitest';
import { handler as updatePersonHandler } from '#functions/person/update-person.ts';
import { handler as searchPersonHandler } from '#functions/search/search-person.ts';
import { handler as getAuthStatus } from '#functions/v3/auth/get-auth-status.ts';
import { handler as getDuplicates } from '#functions/v3/duplicate/get-asset-duplicates.ts';
import { handler as getLibraries } from '#functions/v3/library/get-all-libraries.ts';
import { handler as getApkLinks } from '#functions/v3/server/get-apk-links.ts';
import { handler as getVersionCheckState } from '#functions/v3/system-metadata/get-version-check-state.ts';
import { bearer, createApiKey, freshUser, login, signUpAdmin } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, personNamed } from '../support/library.ts';

let adminToken: string;
let user: { id: string; accessToken: string };

beforeAll(async () => {
  await signUpAdmin();
  adminToken = (await login({ email: 'admin@immich.cloud', password: 'password' })).accessToken;
  user = await freshUser(adminToken, 'Seeker');
  await addPhoto(user.accessToken, { mwgFaces: [{ name: 'Zoë Ångström', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] });
  await addPhoto(user.accessToken, {
    color: [10, 200, 10],
    mwgFaces: [
      { name: 'Mary Anne', x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
      { name: 'Anne', x: 0.5, y: 0.5, w: 0.2, h: 0.2 },
    ],
  });
  await addPhoto(user.accessToken, { color: [200, 10, 10], mwgFaces: [{ name: 'Anne', x: 0.3, y: 0.3, w: 0.2, h: 0.2 }] });
});

const search = (query: Record<string, string>, token = user.accessToken) =>
  invoke(searchPersonHandler, { path: '/api/search/person', query, headers: bearer(token) });

describe('GET /search/person (both generations)', () => {
  it('finds people by the start of their name or of a word of it, any case, accents aside, most faces first', async () => {
    const names = async (query: Record<string, string>) => (await search(query)).body.map((person: { name: string }) => person.name);
    expect(await names({ name: 'ANNE' })).toEqual(['Anne', 'Mary Anne']);
    expect(await names({ name: 'zoe' })).toEqual(['Zoë Ångström']);
    expect(await names({ name: 'angs' })).toEqual(['Zoë Ångström']);
    expect(await names({ name: 'nne' })).toEqual([]);
    const [anne] = (await search({ name: 'anne' })).body;
    expect(anne).toMatchObject({ name: 'Anne', isHidden: false, isFavorite: false, birthDate: null, updatedAt: expect.any(String) });
    // Hidden people only when asked.
    const hidden = await personNamed(user.accessToken, 'Mary Anne');
    await invoke(updatePersonHandler, {
      method: 'PUT',
      path: `/api/person/${hidden.id}`,
      pathParameters: { id: hidden.id },
      headers: bearer(user.accessToken),
      body: { isHidden: true },
    });
    expect(await names({ name: 'anne' })).toEqual(['Anne']);
    expect(await names({ name: 'anne', withHidden: 'true' })).toEqual(['Anne', 'Mary Anne']);
    // Another user's people are not theirs to find.
    expect((await search({ name: 'anne' }, adminToken)).body).toEqual([]);
  });

  it('refuses a missing name as v1.100 does', async () => {
    expect((await search({})).body).toEqual({
      message: ['name should not be empty', 'name must be a string'],
      error: 'Bad Request',
      statusCode: 400,
    });
  });
});

describe('v3 reads answered as an Immich without the feature', () => {
  it('auth status: a password, no PIN code, not elevated, and the session’s end', async () => {
    const status = await invoke(getAuthStatus, { path: '/api/auth/status', headers: bearer(user.accessToken) });
    expect(status.status).toBe(200);
    expect(status.body).toEqual({ pinCode: false, password: true, isElevated: false, expiresAt: expect.any(String) });
    expect(new Date(status.body.expiresAt).getTime()).toBeGreaterThan(Date.now() + 300 * 86_400_000);
    // An API key has no session to end.
    const key = await createApiKey(user.accessToken, 'status');
    expect((await invoke(getAuthStatus, { path: '/api/auth/status', headers: { 'x-api-key': key.secret } })).body).toEqual({
      pinCode: false,
      password: true,
      isElevated: false,
    });
  });

  it('no duplicates, no external libraries (admin), no version check yet (admin), and the Android builds', async () => {
    expect(await invoke(getDuplicates, { path: '/api/duplicates', headers: bearer(user.accessToken) })).toMatchObject({
      status: 200,
      body: [],
    });
    expect(await invoke(getLibraries, { path: '/api/libraries', headers: bearer(adminToken) })).toMatchObject({ status: 200, body: [] });
    expect((await invoke(getLibraries, { path: '/api/libraries', headers: bearer(user.accessToken) })).status).toBe(403);
    expect(
      await invoke(getVersionCheckState, { path: '/api/system-metadata/version-check-state', headers: bearer(adminToken) }),
    ).toMatchObject({
      status: 200,
      body: { checkedAt: null, releaseVersion: null },
    });
    const links = await invoke(getApkLinks, { path: '/api/server/apk-links', headers: bearer(user.accessToken) });
    expect(links.body).toEqual({
      arm64v8a: 'https://github.com/immich-app/immich/releases/download/v3.2.2/app-arm64-v8a-release.apk',
      armeabiv7a: 'https://github.com/immich-app/immich/releases/download/v3.2.2/app-armeabi-v7a-release.apk',
      universal: 'https://github.com/immich-app/immich/releases/download/v3.2.2/app-release.apk',
      x86_64: 'https://github.com/immich-app/immich/releases/download/v3.2.2/app-x86_64-release.apk',
    });
  });
});
