import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getPartnersV1 } from '#functions/partner/get-partners.ts';
import { handler as getAllPeopleV1 } from '#functions/person/get-all-people.ts';
import { handler as getAllSharedLinksV1 } from '#functions/shared-link/get-all-shared-links.ts';
import { handler as createPartner } from '#functions/v3/partner/create-partner.ts';
import { handler as createPartnerDeprecated } from '#functions/v3/partner/create-partner-deprecated.ts';
import { handler as getPartners } from '#functions/v3/partner/get-partners.ts';
import { handler as removePartner } from '#functions/v3/partner/remove-partner.ts';
import { handler as updatePartner } from '#functions/v3/partner/update-partner.ts';
import { handler as createPerson } from '#functions/v3/person/create-person.ts';
import { handler as getAllPeople } from '#functions/v3/person/get-all-people.ts';
import { handler as getPerson } from '#functions/v3/person/get-person.ts';
import { handler as getPersonStatistics } from '#functions/v3/person/get-person-statistics.ts';
import { handler as mergePersonLegacy } from '#functions/v3/person/merge-person-legacy.ts';
import { handler as updatePeople } from '#functions/v3/person/update-people.ts';
import { handler as updatePerson } from '#functions/v3/person/update-person.ts';
import { handler as addSharedLinkAssets } from '#functions/v3/shared-link/add-shared-link-assets.ts';
import { handler as createSharedLink } from '#functions/v3/shared-link/create-shared-link.ts';
import { handler as getAllSharedLinks } from '#functions/v3/shared-link/get-all-shared-links.ts';
import { handler as getMySharedLink } from '#functions/v3/shared-link/get-my-shared-link.ts';
import { handler as getSharedLinkById } from '#functions/v3/shared-link/get-shared-link-by-id.ts';
import { handler as removeSharedLink } from '#functions/v3/shared-link/remove-shared-link.ts';
import { handler as updateSharedLink } from '#functions/v3/shared-link/update-shared-link.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, createAlbum, personNamed } from '../support/library.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

describe('partners (v3)', () => {
  it('shares a library with a partner, who puts it in their timeline; v1.100 reads the same shares; stops', async () => {
    const [alice, bob, carol] = [
      await freshUser(accounts.admin.accessToken, 'Alice'),
      await freshUser(accounts.admin.accessToken, 'Bob'),
      await freshUser(accounts.admin.accessToken, 'Carol'),
    ];
    const created = await invoke(createPartner, {
      method: 'POST',
      path: '/api/partners',
      headers: bearer(alice.accessToken),
      body: { sharedWithId: bob.userId },
    });
    expect(created).toMatchObject({ status: 201, body: { id: bob.userId, name: 'Bob', inTimeline: false } });
    expect(Object.keys(created.body).sort()).toEqual([
      'avatarColor',
      'email',
      'id',
      'inTimeline',
      'name',
      'profileChangedAt',
      'profileImagePath',
    ]);
    const old = await invoke(createPartnerDeprecated, {
      method: 'POST',
      path: `/api/partners/${carol.userId}`,
      headers: bearer(alice.accessToken),
      pathParameters: { id: carol.userId },
    });
    expect(old.status).toBe(201);
    const list = (token: string, direction: string) =>
      invoke(getPartners, { path: '/api/partners', query: { direction }, headers: bearer(token) });
    expect(((await list(alice.accessToken, 'shared-by')).body as { name: string }[]).map((p) => p.name).sort()).toEqual(['Bob', 'Carol']);
    expect(((await list(bob.accessToken, 'shared-with')).body as { name: string }[]).map((p) => p.name)).toEqual(['Alice']);
    expect((await invoke(getPartners, { path: '/api/partners', headers: bearer(bob.accessToken) })).body.message).toBe('Validation failed');

    const joined = await invoke(updatePartner, {
      method: 'PUT',
      path: `/api/partners/${alice.userId}`,
      headers: bearer(bob.accessToken),
      pathParameters: { id: alice.userId },
      body: { inTimeline: true },
    });
    expect(joined.body).toMatchObject({ id: alice.userId, inTimeline: true });
    const v1 = await invoke(getPartnersV1, { path: '/api/partner', query: { direction: 'shared-with' }, headers: bearer(bob.accessToken) });
    expect(v1.body).toMatchObject([{ id: alice.userId, inTimeline: true }]);

    const removed = await invoke(removePartner, {
      method: 'DELETE',
      path: `/api/partners/${bob.userId}`,
      headers: bearer(alice.accessToken),
      pathParameters: { id: bob.userId },
    });
    expect(removed.status).toBe(204);
    expect((await list(bob.accessToken, 'shared-with')).body).toEqual([]);
  });
});

describe('people (v3)', () => {
  it('pages people, edits favourite, colour, name and birth date, read through v1.100 too', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Faces');
    for (const [index, name] of ['Ann', 'Ben', 'Cid'].entries()) {
      await addPhoto(user.accessToken, { color: [index * 40, 9, 9], mwgFaces: [{ name, x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] });
    }
    const page = (query: Record<string, string>) => invoke(getAllPeople, { path: '/api/people', query, headers: bearer(user.accessToken) });
    const first = await page({ size: '2' });
    expect(first.body).toMatchObject({ total: 3, hidden: 0, hasNextPage: true });
    expect(first.body.people).toHaveLength(2);
    const second = await page({ size: '2', page: '2' });
    expect(second.body).toMatchObject({ hasNextPage: false, people: [expect.objectContaining({ isFavorite: false })] });

    const cid = await personNamed(user.accessToken, 'Cid');
    const edited = await invoke(updatePerson, {
      method: 'PUT',
      path: `/api/people/${cid.id}`,
      headers: bearer(user.accessToken),
      pathParameters: { id: cid.id },
      body: { isFavorite: true, color: '#ff8800', name: 'Cid C', birthDate: '1990-01-01' },
    });
    expect(edited.body).toMatchObject({ name: 'Cid C', isFavorite: true, color: '#ff8800', birthDate: '1990-01-01' });
    // A favourite comes first.
    expect((await page({})).body.people[0].id).toBe(cid.id);
    const v1 = await invoke(getAllPeopleV1, { path: '/api/person', headers: bearer(user.accessToken) });
    expect(v1.body.people.find((person: { id: string }) => person.id === cid.id)).toEqual({
      id: cid.id,
      name: 'Cid C',
      birthDate: '1990-01-01',
      thumbnailPath: expect.any(String),
      isHidden: false,
    });
    const one = await invoke(getPerson, {
      path: `/api/people/${cid.id}`,
      headers: bearer(user.accessToken),
      pathParameters: { id: cid.id },
    });
    expect(one.body).toMatchObject({ id: cid.id, isFavorite: true });
    const stats = await invoke(getPersonStatistics, {
      path: `/api/people/${cid.id}/statistics`,
      headers: bearer(user.accessToken),
      pathParameters: { id: cid.id },
    });
    expect(stats.body).toEqual({ assets: 1 });

    const bulk = await invoke(updatePeople, {
      method: 'PUT',
      path: '/api/people',
      headers: bearer(user.accessToken),
      body: {
        people: [
          { id: cid.id, isHidden: true },
          { id: '00000000-0000-4000-a000-000000000000', name: 'x' },
        ],
      },
    });
    expect(bulk.body).toEqual([
      { id: cid.id, success: true },
      { id: '00000000-0000-4000-a000-000000000000', success: false, error: 'unknown' },
    ]);
    expect((await page({})).body).toMatchObject({ total: 3, hidden: 1 });
    expect((await page({ withHidden: 'true' })).body.people).toHaveLength(3);
  });

  it('creates a person, merges people into one, and refuses bad input in v3’s shape', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Merger');
    await addPhoto(user.accessToken, { color: [1, 99, 1], mwgFaces: [{ name: 'Dee', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] });
    await addPhoto(user.accessToken, { color: [2, 99, 2], mwgFaces: [{ name: 'Dee Two', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] });
    const [dee, two] = [await personNamed(user.accessToken, 'Dee'), await personNamed(user.accessToken, 'Dee Two')];
    const merged = await invoke(mergePersonLegacy, {
      method: 'POST',
      path: `/api/people/${dee.id}/merge`,
      headers: bearer(user.accessToken),
      pathParameters: { id: dee.id },
      body: { ids: [two.id] },
    });
    expect(merged).toMatchObject({ status: 200, body: [{ id: two.id, success: true }] });
    const created = await invoke(createPerson, {
      method: 'POST',
      path: '/api/people',
      headers: bearer(user.accessToken),
      body: { name: 'Nobody Yet', isFavorite: true },
    });
    expect(created).toMatchObject({ status: 201, body: { name: 'Nobody Yet', isFavorite: true, isHidden: false } });
    const bad = await invoke(createPerson, {
      method: 'POST',
      path: '/api/people',
      headers: bearer(user.accessToken),
      body: { birthDate: '2999-01-01', color: 'red' },
    });
    expect(bad.body.errors.map((issue: { path: string[] }) => issue.path[0]).sort()).toEqual(['birthDate', 'color']);
  });
});

describe('shared links (v3)', () => {
  it('creates, lists, reads, edits and deletes links in v3’s shape, read through v1.100 too; a visitor opens one', async () => {
    const token = accounts.user1.accessToken;
    const photo = await addPhoto(token, { color: [200, 200, 9] });
    const album = await createAlbum(token, { albumName: 'Linked v3', assetIds: [photo] });
    const create = (body: unknown) => invoke(createSharedLink, { method: 'POST', path: '/api/shared-links', headers: bearer(token), body });
    const albumLink = await create({ type: 'ALBUM', albumId: album.id, description: 'hello', showMetadata: false });
    expect(albumLink).toMatchObject({ status: 201, body: { type: 'ALBUM', slug: null, password: null, showMetadata: false, assets: [] } });
    const single = await create({ type: 'INDIVIDUAL', assetIds: [photo], expiresAt: '2999-01-01T00:00:00.000Z' });
    expect(single.body.expiresAt).toBe('2999-01-01T00:00:00.000Z');
    // A custom URL, as Immich 3.x keeps it (test/functions/shared-link-slugs.test.ts tells the rest).
    expect((await create({ type: 'INDIVIDUAL', assetIds: [photo], slug: 'my-trip' })).body).toMatchObject({ slug: 'my-trip' });

    const listed = await invoke(getAllSharedLinks, { path: '/api/shared-links', query: { albumId: album.id }, headers: bearer(token) });
    expect(listed.body.map((link: { id: string }) => link.id)).toEqual([albumLink.body.id]);
    const read = await invoke(getSharedLinkById, {
      path: `/api/shared-links/${albumLink.body.id}`,
      headers: bearer(token),
      pathParameters: { id: albumLink.body.id },
    });
    expect(read.body.album).toMatchObject({
      id: album.id,
      albumName: 'Linked v3',
      albumUsers: [expect.objectContaining({ role: 'owner' })],
    });
    const v1 = await invoke(getAllSharedLinksV1, { path: '/api/shared-link', headers: bearer(token) });
    expect(v1.body.some((link: { id: string }) => link.id === single.body.id)).toBe(true);

    const visitor = await invoke(getMySharedLink, { path: '/api/shared-links/me', query: { key: albumLink.body.key } });
    expect(visitor.status).toBe(200);
    // showMetadata false: sanitized assets, v3's (milliseconds, sizes).
    expect(visitor.body.assets[0]).toEqual({
      id: photo,
      type: 'IMAGE',
      thumbhash: null,
      localDateTime: expect.any(String),
      duration: null,
      livePhotoVideoId: null,
      hasMetadata: false,
      width: expect.any(Number),
      height: expect.any(Number),
    });

    const edited = await invoke(updateSharedLink, {
      method: 'PATCH',
      path: `/api/shared-links/${single.body.id}`,
      headers: bearer(token),
      pathParameters: { id: single.body.id },
      body: { expiresAt: null, description: 'changed' },
    });
    expect(edited.body).toMatchObject({ expiresAt: null, description: 'changed' });
    const added = await invoke(addSharedLinkAssets, {
      method: 'PUT',
      path: `/api/shared-links/${single.body.id}/assets`,
      headers: bearer(token),
      pathParameters: { id: single.body.id },
      body: { assetIds: [photo] },
    });
    expect(added.body).toEqual([{ assetId: photo, success: false, error: 'duplicate' }]);
    const removed = await invoke(removeSharedLink, {
      method: 'DELETE',
      path: `/api/shared-links/${single.body.id}`,
      headers: bearer(token),
      pathParameters: { id: single.body.id },
    });
    expect(removed.status).toBe(204);
  });
});
