import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAllAlbums } from '#functions/v3/album/get-all-albums.ts';
import { handler as downloadAsset } from '#functions/v3/asset/download-asset.ts';
import { handler as getAssetInfo } from '#functions/v3/asset/get-asset-info.ts';
import { handler as playAssetVideo } from '#functions/v3/asset/play-asset-video.ts';
import { handler as updateAsset } from '#functions/v3/asset/update-asset.ts';
import { handler as viewAsset } from '#functions/v3/asset/view-asset.ts';
import { handler as createMemory } from '#functions/v3/memory/create-memory.ts';
import { handler as searchMemories } from '#functions/v3/memory/search-memories.ts';
import { handler as searchRandom } from '#functions/v3/search/search-random.ts';
import { handler as createSession } from '#functions/v3/session/create-session.ts';
import { handler as getSessions } from '#functions/v3/session/get-sessions.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, assetInfo, createAlbum } from '../support/library.ts';
import { objectCreated, turnOffMl } from '../support/media.ts';
import { upload } from '../support/uploads.ts';
import { makeVideo } from '../support/videos.ts';

/**
 * The requests the 3.x apps' home-screen widgets and Google Cast receivers send, exactly as they
 * build them (Immich v3.1: the Android and iOS widgets' ImmichAPI, the app's and the web's Cast),
 * signed in with the session token in `?sessionKey=` only: no header, no cookie.
 */
let accounts: Awaited<ReturnType<typeof setupAccounts>>;
let user: Awaited<ReturnType<typeof freshUser>>;
let photo: string;
let favourite: string;
let video: string;
let albumId: string;
let memoryId: string;
const today = new Date().toISOString().slice(0, 10);

/** A request to `url` exactly as written (query string and all), routed as API Gateway routes `routePath`. */
const send = (
  handler: Parameters<typeof invoke>[0],
  method: string,
  url: string,
  routePath: string,
  extra: { id?: string; body?: unknown; headers?: Record<string, string> } = {},
) =>
  invoke(handler, {
    method,
    path: url,
    routeKey: `${method} ${routePath}`,
    ...(extra.id ? { pathParameters: { id: extra.id } } : {}),
    ...(extra.body === undefined ? {} : { body: extra.body }),
    ...(extra.headers ? { headers: extra.headers } : {}),
  });

/** What a file route sent: a redirect's target, or the type and size of the bytes. */
const sent = (reply: Awaited<ReturnType<typeof invoke>>) =>
  reply.status === 302 ? { status: 302, location: reply.headers.location } : { status: reply.status, type: reply.headers['content-type'] };

beforeAll(async () => {
  accounts = await setupAccounts();
  // Not about OCR or duplicates or faces: off, as each photo's cost (test/support/ml-tasks.ts).
  await turnOffMl(accounts.admin.accessToken, ['facialRecognition', 'ocr', 'duplicateDetection']);
  user = await freshUser(accounts.admin.accessToken, 'Widget');
  const token = user.accessToken;
  photo = await addPhoto(token, { width: 64, height: 48, color: [200, 40, 40] });
  favourite = await addPhoto(token, { width: 64, height: 48, color: [40, 200, 40] });
  const made = await upload(token, { data: makeVideo({ seconds: 1, width: 64, height: 48 }), fileName: 'clip.mp4' });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  video = made.body.id;
  for (const id of [photo, favourite, video]) await objectCreated((await assetInfo(token, id)).body.originalPath);
  const starred = await invoke(updateAsset, {
    method: 'PUT',
    path: `/api/assets/${favourite}`,
    pathParameters: { id: favourite },
    headers: bearer(token),
    body: { isFavorite: true },
  });
  expect(starred.status).toBe(200);
  albumId = (await createAlbum(token, { albumName: 'Trip', assetIds: [photo] })).id;
  const memory = await invoke(createMemory, {
    method: 'POST',
    path: '/api/memories',
    headers: bearer(token),
    body: {
      type: 'on_this_day',
      data: { year: 2020 },
      memoryAt: '2020-06-01T00:00:00.000Z',
      assetIds: [photo],
      showAt: `${today}T00:00:00.000Z`,
      hideAt: `${today}T23:59:59.999Z`,
    },
  });
  expect(memory.status, JSON.stringify(memory.body)).toBe(201);
  memoryId = memory.body.id;
});

describe('the home-screen widgets (Android and iOS), signed in with ?sessionKey= alone', () => {
  it('picks a random photo of an album, of the favourites and of the library', async () => {
    const token = user.accessToken;
    const random = (body: unknown) => send(searchRandom, 'POST', `/api/search/random?sessionKey=${token}`, '/api/search/random', { body });
    const ofAlbum = await random({ type: 'IMAGE', size: 1, albumIds: [albumId] });
    expect(ofAlbum.status, JSON.stringify(ofAlbum.body)).toBe(200);
    expect(ofAlbum.body.map((asset: { id: string }) => asset.id)).toEqual([photo]);
    const favourites = await random({ type: 'IMAGE', size: 1, albumIds: [], isFavorite: true });
    expect(favourites.body.map((asset: { id: string }) => asset.id)).toEqual([favourite]);
    const any = await random({ type: 'IMAGE', size: 1, albumIds: [] });
    expect(any.body).toHaveLength(1);
    expect([photo, favourite]).toContain(any.body[0].id);
  });

  it('reads the day’s memories, a photo’s preview (the edited one if any) and the albums to pick from', async () => {
    const token = user.accessToken;
    const memories = await send(searchMemories, 'GET', `/api/memories?sessionKey=${token}&for=${today}`, '/api/memories');
    expect(memories.status, JSON.stringify(memories.body)).toBe(200);
    expect(memories.body.map((memory: { id: string }) => memory.id)).toEqual([memoryId]);
    const preview = await send(
      viewAsset,
      'GET',
      `/api/assets/${photo}/thumbnail?sessionKey=${token}&size=preview&edited=true`,
      '/api/assets/{id}/thumbnail',
      { id: photo },
    );
    expect(sent(preview)).toEqual({ status: 200, type: 'image/jpeg' });
    const albums = await send(getAllAlbums, 'GET', `/api/albums?sessionKey=${token}`, '/api/albums');
    expect(albums.status).toBe(200);
    expect(albums.body.map((album: { id: string }) => album.id)).toEqual([albumId]);
  });

  it('is refused with Immich’s 401 once the token is no longer a session', async () => {
    const reply = await send(searchRandom, 'POST', '/api/search/random?sessionKey=not-a-session', '/api/search/random', { body: {} });
    expect(reply).toMatchObject({ status: 401, body: { message: 'Invalid user token' } });
  });
});

describe('Google Cast: a session of its own for the receiver, whose token goes in ?sessionKey=', () => {
  /** What the app (cookie) and the web app (cookie) do first: a child session named for the Cast device. */
  const castSession = async () => {
    const made = await invoke(createSession, {
      method: 'POST',
      path: '/api/sessions',
      headers: { cookie: `immich_access_token=${user.accessToken}` },
      body: { deviceType: 'Cast', deviceOS: 'Google Cast', duration: 900 },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ deviceType: 'Cast', deviceOS: 'Google Cast', current: false, token: expect.any(String) });
    const left = Date.parse(made.body.expiresAt) - Date.now();
    expect(left).toBeGreaterThan(890_000);
    expect(left).toBeLessThanOrEqual(900_000);
    return made.body as { id: string; token: string };
  };

  it('from the app: the asset read with the cookie, then the full size and the video with the child token', async () => {
    const cast = await castSession();
    const info = await invoke(getAssetInfo, {
      path: `/api/assets/${photo}`,
      pathParameters: { id: photo },
      headers: { cookie: `immich_access_token=${user.accessToken}` },
    });
    // Its media type is what the app hands the receiver (without it the app does not cast), beside the name as Immich orders it.
    expect(info).toMatchObject({ status: 200, body: { id: photo, originalMimeType: 'image/jpeg' } });
    const order = Object.keys(info.body);
    expect(order.slice(order.indexOf('originalFileName'), order.indexOf('originalFileName') + 3)).toEqual([
      'originalFileName',
      'originalMimeType',
      'thumbhash',
    ]);
    const clip = await invoke(getAssetInfo, {
      path: `/api/assets/${video}`,
      pathParameters: { id: video },
      headers: bearer(user.accessToken),
    });
    expect(clip.body.originalMimeType).toBe('video/mp4');
    // A JPEG is its own full size: Immich redirects to the original, keeping the query (the token with it).
    const full = await send(
      viewAsset,
      'GET',
      `/api/assets/${photo}/thumbnail?size=fullsize&edited=true&sessionKey=${cast.token}`,
      '/api/assets/{id}/thumbnail',
      { id: photo },
    );
    expect(sent(full)).toEqual({ status: 302, location: `original?edited=true&sessionKey=${cast.token}` });
    const followed = await send(
      downloadAsset,
      'GET',
      `/api/assets/${photo}/original?edited=true&sessionKey=${cast.token}`,
      '/api/assets/{id}/original',
      { id: photo },
    );
    expect(sent(followed)).toEqual({ status: 200, type: 'image/jpeg' });
    // The app builds the video's URL as `playback?&sessionKey=`.
    const playback = await send(
      playAssetVideo,
      'GET',
      `/api/assets/${video}/video/playback?&sessionKey=${cast.token}`,
      '/api/assets/{id}/video/playback',
      { id: video },
    );
    expect(sent(playback)).toEqual({ status: 200, type: 'video/mp4' });
    // The receiver's session is listed with the device it was named for.
    const listed = await invoke(getSessions, { path: '/api/sessions', headers: bearer(user.accessToken) });
    expect(listed.body.find((session: { id: string }) => session.id === cast.id)).toMatchObject({
      deviceType: 'Cast',
      deviceOS: 'Google Cast',
      current: false,
    });
  });

  it('from the web: the type of the viewer’s file asked with HEAD (the cookie), then its URL with &sessionKey= appended', async () => {
    const cast = await castSession();
    const head = (handler: typeof viewAsset, id: string, route: string, query: string) =>
      send(handler, 'HEAD', `/api/assets/${id}/${route}?${query}`, `/api/assets/{id}/${route}`, {
        id,
        headers: { cookie: `immich_access_token=${user.accessToken}` },
      });
    expect(sent(await head(viewAsset, photo, 'thumbnail', 'size=preview&c=x&edited=true'))).toEqual({ status: 200, type: 'image/jpeg' });
    expect(sent(await head(downloadAsset, photo, 'original', 'c=x&edited=true'))).toEqual({ status: 200, type: 'image/jpeg' });
    expect(sent(await head(playAssetVideo, video, 'video/playback', 'c=x'))).toEqual({ status: 200, type: 'video/mp4' });
    const { thumbhash } = (
      await invoke(getAssetInfo, { path: `/api/assets/${photo}`, pathParameters: { id: photo }, headers: bearer(user.accessToken) })
    ).body as { thumbhash: string };
    const c = encodeURIComponent(thumbhash);
    const preview = await send(
      viewAsset,
      'GET',
      `/api/assets/${photo}/thumbnail?size=preview&c=${c}&edited=true&sessionKey=${cast.token}`,
      '/api/assets/{id}/thumbnail',
      { id: photo },
    );
    expect(sent(preview)).toEqual({ status: 200, type: 'image/jpeg' });
    const original = await send(
      downloadAsset,
      'GET',
      `/api/assets/${photo}/original?c=${c}&edited=true&sessionKey=${cast.token}`,
      '/api/assets/{id}/original',
      { id: photo },
    );
    expect(sent(original)).toEqual({ status: 200, type: 'image/jpeg' });
    const playback = await send(
      playAssetVideo,
      'GET',
      `/api/assets/${video}/video/playback?c=${c}&sessionKey=${cast.token}`,
      '/api/assets/{id}/video/playback',
      { id: video },
    );
    expect(sent(playback)).toEqual({ status: 200, type: 'video/mp4' });
  });
});
