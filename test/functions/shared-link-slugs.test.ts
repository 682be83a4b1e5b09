/**
 * Shared links as the v3 web app makes and edits them: its empty `slug` and `password` read as
 * none, custom URLs (Immich 3.x's slugs) unique among all links and found by `?slug=` and
 * `x-immich-share-slug`, the create answer's assets, and the password stand-in an edit sends back.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createLinkV1 } from '#functions/shared-link/create-shared-link.ts';
import { handler as getMyLinkV1 } from '#functions/shared-link/get-my-shared-link.ts';
import { handler as updateLinkV1 } from '#functions/shared-link/update-shared-link.ts';
import { handler as assetInfoV3 } from '#functions/v3/asset/get-asset-info.ts';
import { handler as createLinkV3 } from '#functions/v3/shared-link/create-shared-link.ts';
import { handler as getAllLinksV3 } from '#functions/v3/shared-link/get-all-shared-links.ts';
import { handler as getMyLinkV3 } from '#functions/v3/shared-link/get-my-shared-link.ts';
import { handler as getLinkV3 } from '#functions/v3/shared-link/get-shared-link-by-id.ts';
import { handler as removeLinkV3 } from '#functions/v3/shared-link/remove-shared-link.ts';
import { handler as linkLoginV3 } from '#functions/v3/shared-link/shared-link-login.ts';
import { handler as updateLinkV3 } from '#functions/v3/shared-link/update-shared-link.ts';
import { bearer, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, createAlbum } from '../support/library.ts';
import { tableItems } from '../support/table-items.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

// What the v3 web app's "Create link" sends with its fields left as they are (SharedLinkCreateModal).
const appDefaults = {
  description: '',
  password: '',
  slug: '',
  allowUpload: false,
  allowDownload: true,
  showMetadata: true,
  expiresAt: null,
};

const create = (token: string, body: Record<string, unknown>) =>
  invoke(createLinkV3, { method: 'POST', path: '/api/shared-links', headers: bearer(token), body });
const update = (token: string, id: string, body: Record<string, unknown>) =>
  invoke(updateLinkV3, { method: 'PATCH', path: `/api/shared-links/${id}`, headers: bearer(token), pathParameters: { id }, body });
const read = (token: string, id: string) =>
  invoke(getLinkV3, { path: `/api/shared-links/${id}`, headers: bearer(token), pathParameters: { id } });
const remove = (token: string, id: string) =>
  invoke(removeLinkV3, { method: 'DELETE', path: `/api/shared-links/${id}`, headers: bearer(token), pathParameters: { id } });
const visit = (query: Record<string, string>, headers: Record<string, string> = {}) =>
  invoke(getMyLinkV3, { path: '/api/shared-links/me', query, headers });
const slugItems = async () =>
  (await tableItems('sharedLinkSlug')).map((item) => ({ slug: String(item.pk).slice(15), linkId: item.linkId }));

describe('the v3 web app’s create and edit forms', () => {
  it('creates a link from the app’s defaults (empty slug and password: none) and answers its assets, as v3 does', async () => {
    const token = accounts.user1.accessToken;
    const later = await addPhoto(token, { make: 'Leica' }, new Date('2024-06-01T00:00:00Z'));
    const earlier = await addPhoto(token, {}, new Date('2021-06-01T00:00:00Z'));
    const reply = await create(token, { ...appDefaults, type: 'INDIVIDUAL', assetIds: [later, earlier] });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toMatchObject({ slug: null, password: null, description: null, type: 'INDIVIDUAL', allowUpload: false });
    // v3 answers the link's own assets (v1.100 answered none), with their EXIF for the creator.
    expect(reply.body.assets.map((asset: { id: string }) => asset.id)).toEqual([earlier, later]);
    expect(reply.body.assets[1].exifInfo.make).toBe('Leica');
    // Opened with its key alone: no password was set.
    expect((await visit({ key: reply.body.key })).status).toBe(200);
    expect(await slugItems()).toEqual([]);

    // The app's edit form sends every field back, the empty slug and password too.
    const edited = await update(token, reply.body.id, { ...appDefaults, description: 'Renamed' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ description: 'Renamed', slug: null, password: null });
    expect((await visit({ key: reply.body.key })).status).toBe(200);
  });

  it('v1.100’s create still answers no assets (its own path), and both generations read "" as no password', async () => {
    const token = accounts.user1.accessToken;
    const photo = await addPhoto(token);
    const reply = await invoke(createLinkV1, {
      method: 'POST',
      path: '/api/shared-link',
      headers: bearer(token),
      body: { type: 'INDIVIDUAL', assetIds: [photo], password: '', description: '' },
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ assets: [], password: null, description: null });
    expect(reply.body).not.toHaveProperty('slug');
    expect((await invoke(getMyLinkV1, { path: '/api/shared-link/me', query: { key: reply.body.key } })).status).toBe(200);
  });

  it('keeps a password the app’s edit form sends back as it was given, removes it for "" or null, changes it for a new one', async () => {
    const token = accounts.user1.accessToken;
    const photo = await addPhoto(token);
    const link = (await create(token, { ...appDefaults, type: 'INDIVIDUAL', assetIds: [photo], password: 'open sesame' })).body;
    const locked = async () => (await visit({ key: link.key })).status === 401;
    expect(await locked()).toBe(true);

    // The edit page fills the form from the link as read (`password: sharedLink.password ?? ''`) and sends it all back.
    const shown = (await read(token, link.id)).body.password as string;
    expect(shown).toEqual(expect.any(String));
    expect(shown).not.toBe('open sesame');
    expect((await update(token, link.id, { ...appDefaults, description: 'same password', password: shown })).status).toBe(200);
    expect(await locked()).toBe(true);
    expect((await visit({ key: link.key, password: 'open sesame' })).status).toBe(200);
    // v1.100's edit form sends it back the same way.
    const v1 = await invoke(updateLinkV1, {
      method: 'PATCH',
      path: `/api/shared-link/${link.id}`,
      headers: bearer(token),
      pathParameters: { id: link.id },
      body: { description: 'v1.100 edit', password: shown },
    });
    expect(v1.status).toBe(200);
    expect(await locked()).toBe(true);

    // A new password replaces it (and the stand-in changes with it).
    const changed = await update(token, link.id, { password: 'new secret' });
    expect(changed.body.password).not.toBe(shown);
    expect((await visit({ key: link.key, password: 'open sesame' })).status).toBe(401);
    expect((await visit({ key: link.key, password: 'new secret' })).status).toBe(200);

    // Cleared in the form (""), as Immich stores it: no password.
    expect((await update(token, link.id, { ...appDefaults })).body.password).toBeNull();
    expect(await locked()).toBe(false);
    // null removes it too (Immich v3 stores null).
    await update(token, link.id, { password: 'again' });
    expect(await locked()).toBe(true);
    expect((await update(token, link.id, { password: null })).body.password).toBeNull();
    expect(await locked()).toBe(false);
  });
});

describe('custom URLs (slugs)', () => {
  it('creates a link with a slug, opens it by ?slug= and x-immich-share-slug on the link’s routes, refuses an unknown one', async () => {
    const token = accounts.user1.accessToken;
    const photo = await addPhoto(token, { make: 'Fujifilm' });
    const link = (await create(token, { ...appDefaults, type: 'INDIVIDUAL', assetIds: [photo], slug: 'summer-2024' })).body;
    expect(link.slug).toBe('summer-2024');
    expect(await slugItems()).toContainEqual({ slug: 'summer-2024', linkId: link.id });

    for (const [query, headers] of [
      [{ slug: 'summer-2024' }, {}],
      [{}, { 'x-immich-share-slug': 'summer-2024' }],
    ] as const) {
      const visited = await visit(query, headers);
      expect(visited.status, JSON.stringify(query)).toBe(200);
      // The link's own key, as with its key: the app reads its assets with either.
      expect(visited.body).toMatchObject({ id: link.id, key: link.key, slug: 'summer-2024' });
      expect(visited.body.assets.map((asset: { id: string }) => asset.id)).toEqual([photo]);
    }
    const asset = await invoke(assetInfoV3, {
      path: `/api/assets/${photo}`,
      query: { slug: 'summer-2024' },
      pathParameters: { id: photo },
    });
    expect(asset.status).toBe(200);
    expect(asset.body.exifInfo.make).toBe('Fujifilm');
    // Slugs are exact: another case, a prefix, an unknown one.
    for (const slug of ['Summer-2024', 'summer', 'nobody-has-this']) {
      // v3's error shape: the message alone.
      expect((await visit({ slug })).body, slug).toEqual({ message: 'Invalid share slug' });
    }
    // A key goes first when both come (Immich's order).
    expect((await visit({ key: link.key, slug: 'nobody-has-this' })).status).toBe(200);
  });

  it('a slug is unique among all users’ links: 400 Failed to save shared link, nothing written', async () => {
    const mine = await addPhoto(accounts.user1.accessToken);
    const theirs = await addPhoto(accounts.user2.accessToken);
    const first = await create(accounts.user1.accessToken, { ...appDefaults, type: 'INDIVIDUAL', assetIds: [mine], slug: 'taken' });
    expect(first.status).toBe(201);
    const before = (await tableItems('sharedLink')).length;
    const again = await create(accounts.user2.accessToken, { ...appDefaults, type: 'INDIVIDUAL', assetIds: [theirs], slug: 'taken' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: 'Failed to save shared link' });
    expect((await tableItems('sharedLink')).length).toBe(before);
    expect((await tableItems('sharedLinkKey')).length).toBe(before);
    // Taking it by an edit is refused the same way, and the edited link keeps what it had.
    const other = (await create(accounts.user2.accessToken, { ...appDefaults, type: 'INDIVIDUAL', assetIds: [theirs], slug: 'theirs' }))
      .body;
    const edit = await update(accounts.user2.accessToken, other.id, { ...appDefaults, slug: 'taken', description: 'lost' });
    expect(edit.body).toEqual({ message: 'Failed to save shared link' });
    expect((await read(accounts.user2.accessToken, other.id)).body).toMatchObject({ slug: 'theirs', description: null });
    expect((await visit({ slug: 'taken' })).body.id).toBe(first.body.id);
    expect((await visit({ slug: 'theirs' })).body.id).toBe(other.id);
  });

  it('changing or removing a slug frees it, v1.100’s edit (which has none) keeps it, deleting the link frees it', async () => {
    const token = accounts.user1.accessToken;
    const photo = await addPhoto(token);
    const link = (await create(token, { ...appDefaults, type: 'INDIVIDUAL', assetIds: [photo], slug: 'first-name' })).body;

    const renamed = await update(token, link.id, { ...appDefaults, slug: 'second-name' });
    expect(renamed.body.slug).toBe('second-name');
    expect((await visit({ slug: 'first-name' })).status).toBe(401);
    expect((await visit({ slug: 'second-name' })).body.id).toBe(link.id);
    // The old one is anyone's again.
    const taker = (await create(token, { ...appDefaults, type: 'INDIVIDUAL', assetIds: [photo], slug: 'first-name' })).body;
    expect((await visit({ slug: 'first-name' })).body.id).toBe(taker.id);

    // An edit without the field keeps the slug (v1.100's route, or a v3 client that does not send it).
    const v1 = await invoke(updateLinkV1, {
      method: 'PATCH',
      path: `/api/shared-link/${link.id}`,
      headers: bearer(token),
      pathParameters: { id: link.id },
      body: { description: 'from v1.100' },
    });
    expect(v1.status).toBe(200);
    expect((await update(token, link.id, { allowUpload: true })).body.slug).toBe('second-name');

    // The app's form cleared: no slug, and it is free.
    expect((await update(token, link.id, { ...appDefaults })).body.slug).toBeNull();
    expect((await visit({ slug: 'second-name' })).status).toBe(401);
    expect(await slugItems()).not.toContainEqual(expect.objectContaining({ linkId: link.id }));
    await update(token, link.id, { slug: 'third-name' });
    expect((await update(token, link.id, { slug: null })).body.slug).toBeNull();
    expect((await visit({ slug: 'third-name' })).status).toBe(401);

    // Deleted: its slug goes with it.
    expect((await remove(token, taker.id)).status).toBe(204);
    expect((await visit({ slug: 'first-name' })).status).toBe(401);
    expect(await slugItems()).not.toContainEqual(expect.objectContaining({ slug: 'first-name' }));
    expect((await create(token, { ...appDefaults, type: 'INDIVIDUAL', assetIds: [photo], slug: 'first-name' })).status).toBe(201);
  });

  it('a password link opened by its slug: the password’s login by slug sets the cookie the slug then opens it with', async () => {
    const token = accounts.user1.accessToken;
    const album = await createAlbum(token, { albumName: 'Behind a slug', assetIds: [await addPhoto(token)] });
    await create(token, { ...appDefaults, type: 'ALBUM', albumId: album.id, slug: 'locked-trip', password: 'pass phrase' });
    expect((await visit({ slug: 'locked-trip' })).body).toEqual({ message: 'Invalid password' });
    const login = (password: string) =>
      invoke(linkLoginV3, { method: 'POST', path: '/api/shared-links/login', query: { slug: 'locked-trip' }, body: { password } });
    expect((await login('wrong')).status).toBe(401);
    const ok = await login('pass phrase');
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ slug: 'locked-trip', album: { albumName: 'Behind a slug' } });
    const cookie = ok.cookies[0]?.split(';')[0] ?? '';
    expect(cookie).toMatch(/^immich_shared_link_token=/);
    expect((await visit({ slug: 'locked-trip' }, { cookie })).status).toBe(200);
  });

  it('an expired link’s slug opens nothing; a slug is at most 500 characters, any text', async () => {
    const token = accounts.user1.accessToken;
    const photo = await addPhoto(token);
    await create(token, { type: 'INDIVIDUAL', assetIds: [photo], slug: 'gone-by', expiresAt: '2000-01-01T00:00:00.000Z' });
    expect((await visit({ slug: 'gone-by' })).body.message).toBe('Invalid share slug');
    // Asked for by a slug longer than any link may have: the same 401, never the table's refusal of a long key.
    expect((await visit({ slug: 'x'.repeat(5000) })).body).toEqual({ message: 'Invalid share slug' });
    const long = await create(token, { type: 'INDIVIDUAL', assetIds: [photo], slug: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toContain('slug');
    expect((await create(token, { type: 'INDIVIDUAL', assetIds: [photo], slug: 42 })).status).toBe(400);
    const odd = await create(token, { type: 'INDIVIDUAL', assetIds: [photo], slug: 'Ünïcode / and spaces?' });
    expect(odd.body.slug).toBe('Ünïcode / and spaces?');
    expect((await visit({ slug: 'Ünïcode / and spaces?' })).body.id).toBe(odd.body.id);
  });
});

describe('concurrent writes of slugs', () => {
  it('two creates of one slug at once: exactly one link has it, the other is refused and leaves nothing', async () => {
    for (let round = 0; round < 5; round++) {
      const slug = `race-${round}`;
      const [a, b] = [await addPhoto(accounts.user1.accessToken), await addPhoto(accounts.user2.accessToken)];
      const before = (await tableItems('sharedLink')).length;
      const replies = await Promise.all([
        create(accounts.user1.accessToken, { type: 'INDIVIDUAL', assetIds: [a], slug }),
        create(accounts.user2.accessToken, { type: 'INDIVIDUAL', assetIds: [b], slug }),
      ]);
      expect(replies.map((reply) => reply.status).sort()).toEqual([201, 400]);
      const winner = replies.find((reply) => reply.status === 201)?.body;
      expect((await tableItems('sharedLink')).length).toBe(before + 1);
      expect((await slugItems()).filter((item) => item.slug === slug)).toEqual([{ slug, linkId: winner.id }]);
      expect((await visit({ slug })).body.id).toBe(winner.id);
    }
  });

  it('concurrent edits of one link’s slug, and a delete beside them: no slug is left naming a link that does not have it', async () => {
    const token = accounts.user1.accessToken;
    const photo = await addPhoto(token);
    const link = (await create(token, { type: 'INDIVIDUAL', assetIds: [photo], slug: 'start' })).body;
    const replies = await Promise.all(['one', 'two', 'three', 'four'].map((slug) => update(token, link.id, { slug })));
    expect(replies.every((reply) => reply.status === 200)).toBe(true);
    const final = (await read(token, link.id)).body.slug as string;
    expect(['one', 'two', 'three', 'four']).toContain(final);
    // Exactly the link's slug is reserved: the others are free again.
    expect((await slugItems()).filter((item) => item.linkId === link.id)).toEqual([{ slug: final, linkId: link.id }]);

    const other = (await create(token, { type: 'INDIVIDUAL', assetIds: [photo], slug: 'doomed' })).body;
    await Promise.all([update(token, other.id, { slug: 'renamed-while-deleted' }), remove(token, other.id)]);
    expect((await slugItems()).filter((item) => item.linkId === other.id)).toEqual([]);
    const listed = await invoke(getAllLinksV3, { path: '/api/shared-links', headers: bearer(token) });
    expect(listed.body.map((each: { id: string }) => each.id)).not.toContain(other.id);
  });
});
