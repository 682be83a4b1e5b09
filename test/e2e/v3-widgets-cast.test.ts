import * as v3 from '@immich/sdk-v3';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeJpeg } from '../support/photos.ts';
import { adminWithApiKey, type SdkUser, sdkUpload } from '../support/sdk.ts';
import { useServer } from '../support/server.ts';
import { hangGuard } from '../support/timeouts.ts';

/**
 * The 3.x apps' home-screen widgets and Google Cast, through the server (the local one, or the
 * synthesized stack in the deployed project): the session token in `?sessionKey=` alone, the web
 * app's HEAD for a file's type, a child session for the receiver (Immich v3.1's ImmichAPI.kt and
 * ImmichAPI.swift, gcast.service.dart, gcast-destination.svelte.ts).
 */
describe('widgets and Google Cast, signed in with ?sessionKey=', () => {
  const server = useServer();
  let admin: SdkUser;
  let token: string;
  let photo: string;
  let albumId: string;

  beforeAll(async () => {
    admin = await adminWithApiKey(server.baseUrl, 'widgets@immich.cloud');
    token = (await v3.login({ loginCredentialDto: { email: 'widgets@immich.cloud', password: 'password' } }, { baseUrl: server.baseUrl }))
      .accessToken;
    photo = await sdkUpload(admin, makeJpeg({ width: 320, height: 240, color: [30, 90, 200] }), 'widget.jpg');
    // Previews are made after the upload's answer: the thumbhash says they exist.
    const deadline = Date.now() + hangGuard.wait;
    while ((await v3.getAssetInfo({ id: photo }, admin)).thumbhash === null && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    albumId = (await v3.createAlbum({ createAlbumDto: { albumName: 'Widget', assetIds: [photo] } }, admin)).id;
  });

  it('serves the widgets’ requests: a random photo of an album, the albums, the day’s memories and a preview', async () => {
    const random = await fetch(`${server.baseUrl}/search/random?sessionKey=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'IMAGE', size: 1, albumIds: [albumId] }),
    });
    expect(random.status).toBe(200);
    expect(((await random.json()) as { id: string }[]).map((asset) => asset.id)).toEqual([photo]);
    const albums = await fetch(`${server.baseUrl}/albums?sessionKey=${token}`);
    expect(((await albums.json()) as { id: string }[]).map((album) => album.id)).toEqual([albumId]);
    const memories = await fetch(`${server.baseUrl}/memories?sessionKey=${token}&for=${new Date().toISOString().slice(0, 10)}`);
    expect(memories.status).toBe(200);
    expect(await memories.json()).toEqual([]);
    // Deployed, a redirect to the bucket, which fetch follows as the widget's image loader does.
    const preview = await fetch(`${server.baseUrl}/assets/${photo}/thumbnail?sessionKey=${token}&size=preview&edited=true`);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('image/jpeg');
    expect((await preview.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it('casts from the web: a child session, the file’s type by HEAD with the cookie, then the file with &sessionKey=', async () => {
    const cookie = { cookie: `immich_access_token=${token}` };
    const cast = await v3.createSession(
      { sessionCreateDto: { deviceType: 'Cast', deviceOS: 'Google Cast', duration: 900 } },
      { baseUrl: server.baseUrl, headers: cookie },
    );
    const { thumbhash, originalMimeType } = await v3.getAssetInfo({ id: photo }, admin);
    // What the mobile app's Cast hands the receiver as the content type.
    expect(originalMimeType).toBe('image/jpeg');
    const mediaUrl = `${server.baseUrl}/assets/${photo}/thumbnail?size=preview&c=${encodeURIComponent(thumbhash ?? '')}&edited=true`;
    const head = await fetch(mediaUrl, { method: 'HEAD', headers: cookie });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/jpeg');
    const received = await fetch(`${mediaUrl}&sessionKey=${cast.token}`);
    expect(received.status).toBe(200);
    expect(received.headers.get('content-type')).toBe('image/jpeg');
    const original = await fetch(`${server.baseUrl}/assets/${photo}/original?edited=true`, { method: 'HEAD', headers: cookie });
    expect([original.status, original.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    const sessions = await v3.getSessions({ baseUrl: server.baseUrl, headers: cookie });
    expect(sessions.find((session) => session.id === cast.id)).toMatchObject({ deviceType: 'Cast', deviceOS: 'Google Cast' });
  });
});
