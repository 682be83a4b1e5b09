import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createPartnerHandler } from '#functions/partner/create-partner.ts';
import { handler as updatePartnerHandler } from '#functions/partner/update-partner.ts';
import { handler as getExploreDataHandler } from '#functions/search/get-explore-data.ts';
import { handler as getSearchSuggestionsHandler } from '#functions/search/get-search-suggestions.ts';
import { handler as searchMetadataHandler } from '#functions/search/search-metadata.ts';
import { db, tableName } from '#shared/db/client.ts';
import * as keys from '#shared/db/item-keys.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, assetInfo, trash, updateAsset } from '../support/library.ts';
import { makeJpeg } from '../support/photos.ts';
import { tableItems } from '../support/table-items.ts';
import { upload } from '../support/uploads.ts';
import { makeVideo } from '../support/videos.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const suggest = (token: string, query: Record<string, string>) =>
  invoke(getSearchSuggestionsHandler, { path: '/api/search/suggestions', query, headers: bearer(token) });
const metadata = (token: string, body: unknown) =>
  invoke(searchMetadataHandler, { method: 'POST', path: '/api/search/metadata', headers: bearer(token), body });

describe('GET /search/suggestions and GET /search/explore', () => {
  it('suggests the places and cameras of untrashed assets, narrowed as Immich does; explores cities with 5 assets', async () => {
    const user = (await freshUser(accounts.admin.accessToken, `Explorer${Date.now()}`)).accessToken;
    const other = (await freshUser(accounts.admin.accessToken, `Nosy${Date.now()}`)).accessToken;
    const oslo = { city: 'Oslo', state: 'Oslo', country: 'Norway', make: 'Canon', model: 'R5' };
    for (let index = 0; index < 5; index++) await addPhoto(user, { ...oslo, comment: `oslo${index}` });
    await addPhoto(user, { city: 'Bergen', state: 'Vestland', country: 'Norway', make: 'Nikon', model: 'Z6' });
    await addPhoto(user, { city: 'Lyon', state: 'Rhône', country: 'France', make: 'Canon', model: 'R6' });
    const gone = await addPhoto(user, { city: 'Rome', state: 'Lazio', country: 'Italy', make: 'Leica', model: 'Q3' });
    expect((await trash(user, [gone])).status).toBe(204);
    const archived = await addPhoto(user, { city: 'Paris', country: 'France' });
    expect((await updateAsset(user, archived, { isArchived: true })).status).toBe(200);

    const values = async (query: Record<string, string>) => (await suggest(user, query)).body;
    expect(await values({ type: 'country' })).toEqual(['France', 'Norway']);
    expect(await values({ type: 'state', country: 'Norway' })).toEqual(['Oslo', 'Vestland']);
    expect(await values({ type: 'state' })).toEqual(['Oslo', 'Rhône', 'Vestland']);
    expect(await values({ type: 'city', country: 'France' })).toEqual(['Lyon', 'Paris']);
    expect(await values({ type: 'city', country: 'Norway', state: 'Vestland' })).toEqual(['Bergen']);
    expect(await values({ type: 'camera-make' })).toEqual(['Canon', 'Nikon']);
    expect(await values({ type: 'camera-make', model: 'Z6' })).toEqual(['Nikon']);
    expect(await values({ type: 'camera-model', make: 'Canon' })).toEqual(['R5', 'R6']);
    expect((await suggest(other, { type: 'country' })).body).toEqual([]);
    expect((await suggest(user, {})).body.message).toEqual([
      'type should not be empty',
      'type must be one of the following values: country, state, city, camera-make, camera-model, camera-lens-model',
    ]);

    const explore = await invoke(getExploreDataHandler, { path: '/api/search/explore', headers: bearer(user) });
    expect(explore.status).toBe(200);
    expect(explore.body).toEqual([
      {
        fieldName: 'exifInfo.city',
        items: [{ value: 'Oslo', data: expect.objectContaining({ exifInfo: expect.objectContaining({ city: 'Oslo' }) }) }],
      },
      { fieldName: 'smartInfo.tags', items: [] },
    ]);
    expect((await invoke(getExploreDataHandler, { path: '/api/search/explore', headers: bearer(other) })).body[0].items).toEqual([]);
  });
});

describe('GET /search/suggestions: lenses, includeNull, partners (Immich v3)', () => {
  it('suggests lenses and the cameras of a lens, appends null with includeNull, and reads the partners in the timeline', async () => {
    const user = await freshUser(accounts.admin.accessToken, `Lenses${Date.now()}`);
    const partner = await freshUser(accounts.admin.accessToken, `LensPartner${Date.now()}`);
    const token = user.accessToken;
    await addPhoto(token, { make: 'Canon', model: 'R5', lensModel: 'RF 24-70mm F2.8', color: [1, 0, 0] });
    await addPhoto(token, { make: 'Canon', model: 'R5', lensModel: 'RF 50mm F1.2', color: [2, 0, 0] });
    await addPhoto(token, { make: 'Canon', model: 'R6', lensModel: 'RF 50mm F1.2', color: [3, 0, 0] });
    await addPhoto(token, { make: 'Nikon', model: 'Z6', color: [4, 0, 0] });
    const gone = await addPhoto(token, { make: 'Leica', model: 'Q3', lensModel: 'Summilux 28', color: [5, 0, 0] });
    expect((await trash(token, [gone])).status).toBe(204);
    await addPhoto(partner.accessToken, { make: 'Sony', model: 'A7', lensModel: 'FE 35mm', color: [6, 0, 0] });

    const values = async (query: Record<string, string>) => {
      const reply = await suggest(token, query);
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return reply.body;
    };
    // The web app's search options dialog asks this on opening.
    expect(await values({ type: 'camera-lens-model', includeNull: 'true' })).toEqual(['RF 24-70mm F2.8', 'RF 50mm F1.2', null]);
    expect(await values({ type: 'camera-lens-model', make: 'Canon', model: 'R6' })).toEqual(['RF 50mm F1.2']);
    expect(await values({ type: 'camera-lens-model', make: 'Nikon' })).toEqual([]);
    expect(await values({ type: 'camera-make', lensModel: 'RF 50mm F1.2' })).toEqual(['Canon']);
    expect(await values({ type: 'camera-model', lensModel: 'RF 50mm F1.2' })).toEqual(['R5', 'R6']);
    expect(await values({ type: 'camera-model', make: 'Canon', lensModel: 'RF 24-70mm F2.8' })).toEqual(['R5']);
    for (const type of ['country', 'state', 'city', 'camera-make', 'camera-model'])
      expect((await values({ type, includeNull: 'true' })).at(-1), type).toBeNull();
    expect(await values({ type: 'camera-make', includeNull: 'false' })).toEqual(['Canon', 'Nikon']);
    expect((await suggest(token, { type: 'camera-make', includeNull: 'maybe' })).status).toBe(400);

    // A partner's library counts once it is in the caller's timeline, as Immich's getUserIdsToSearch.
    await invoke(createPartnerHandler, {
      method: 'POST',
      path: `/api/partner/${user.userId}`,
      headers: bearer(partner.accessToken),
      pathParameters: { id: user.userId },
    });
    expect(await values({ type: 'camera-make' })).toEqual(['Canon', 'Nikon']);
    await invoke(updatePartnerHandler, {
      method: 'PUT',
      path: `/api/partner/${partner.userId}`,
      headers: bearer(token),
      pathParameters: { id: partner.userId },
      body: { inTimeline: true },
    });
    expect(await values({ type: 'camera-make' })).toEqual(['Canon', 'Nikon', 'Sony']);
    expect(await values({ type: 'camera-lens-model' })).toEqual(['FE 35mm', 'RF 24-70mm F2.8', 'RF 50mm F1.2']);
  });

  it('gives a library whose counters were written before the lens facets its lenses, once, and keeps counting them', async () => {
    const user = await freshUser(accounts.admin.accessToken, `OldLenses${Date.now()}`);
    const token = user.accessToken;
    const march = new Date('2021-03-10T10:00:00Z');
    await addPhoto(token, { make: 'Fuji', model: 'X-T5', lensModel: 'XF 23mm', color: [1, 1, 0] }, march);
    await addPhoto(token, { make: 'Fuji', model: 'X-T5', lensModel: 'XF 56mm', color: [2, 1, 0] }, new Date('2021-04-10T10:00:00Z'));
    // As the counters and the user were written before: no lens facets, no marks.
    const counters = (await tableItems('timeBuckets')).filter((item) => item.pk === `BUCKETS#${user.userId}`);
    expect(counters).toHaveLength(2);
    for (const item of counters) {
      const lenses = Object.keys(item).filter((name) => name.startsWith('xl['));
      expect(lenses).toHaveLength(1);
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: `REMOVE ${lenses.map((_, index) => `#l${index}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(lenses.map((name, index) => [`#l${index}`, name])),
        }),
      );
    }
    await db.send(new UpdateCommand({ TableName: tableName, Key: keys.user(user.userId), UpdateExpression: 'REMOVE lensesIndexed' }));
    // A photo of the same month uploaded since: counted as it is written, and not twice.
    const since = await addPhoto(token, { make: 'Fuji', model: 'X-T5', lensModel: 'XF 23mm', color: [3, 1, 0] }, march);

    expect((await suggest(token, { type: 'camera-lens-model' })).body).toEqual(['XF 23mm', 'XF 56mm']);
    const after = (await tableItems('timeBuckets')).filter((item) => item.pk === `BUCKETS#${user.userId}`);
    expect(after.find((item) => item.sk === '2021-03')).toMatchObject({ lensCounted: true, 'xl["Fuji","X-T5","XF 23mm"]': 2 });
    expect((await tableItems('user')).find((item) => item.id === user.userId)).toMatchObject({ lensesIndexed: true });

    // Later writes move them as any facet: the trash takes the lens away with its last photo.
    const [first] = (await metadata(token, { lensModel: 'XF 56mm' })).body.assets.items;
    expect((await trash(token, [first.id, since])).status).toBe(204);
    expect((await suggest(token, { type: 'camera-lens-model' })).body).toEqual(['XF 23mm']);
  });
});

describe('POST /search/metadata', () => {
  it("pages the caller's (and in-timeline partners') matches in Immich's SearchResponseDto", async () => {
    const user = await freshUser(accounts.admin.accessToken, `Searcher${Date.now()}`);
    const partner = await freshUser(accounts.admin.accessToken, `Shown${Date.now()}`);
    const at = (day: number) => new Date(Date.UTC(2020, 0, day));
    const mine = [await addPhoto(user.accessToken, { make: 'Fuji' }, at(1)), await addPhoto(user.accessToken, { make: 'Fuji' }, at(3))];
    const theirs = await addPhoto(partner.accessToken, { make: 'Fuji' }, at(2));
    await addPhoto(user.accessToken, { make: 'Sony' }, at(4));

    const first = await metadata(user.accessToken, { make: 'Fuji', size: 1, withExif: true });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      albums: { total: 0, count: 0, items: [], facets: [] },
      assets: { total: 1, count: 1, facets: [], nextPage: '2', items: [{ id: mine[1], exifInfo: { make: 'Fuji' } }] },
    });
    expect((await metadata(user.accessToken, { make: 'Fuji', size: 1, page: 2 })).body.assets).toMatchObject({
      nextPage: null,
      items: [{ id: mine[0] }],
    });

    // A partner's library joins once it is in the caller's timeline.
    await invoke(createPartnerHandler, {
      method: 'POST',
      path: `/api/partner/${user.userId}`,
      headers: bearer(partner.accessToken),
      pathParameters: { id: user.userId },
    });
    await invoke(updatePartnerHandler, {
      method: 'PUT',
      path: `/api/partner/${partner.userId}`,
      headers: bearer(user.accessToken),
      pathParameters: { id: partner.userId },
      body: { inTimeline: true },
    });
    const all = await metadata(user.accessToken, { make: 'Fuji', order: 'asc' });
    expect(all.body.assets.items.map((asset: { id: string }) => asset.id)).toEqual([mine[0], theirs, mine[1]]);
    expect((await metadata(user.accessToken, { make: 'Fuji', isFavorite: 'maybe' })).body.message).toEqual([
      'isFavorite must be a boolean value',
    ]);
  });
});

describe('POST /search/metadata {type}: Immich’s e2e cases', () => {
  it('type VIDEO finds uploaded videos and live photos’ hidden videos; type IMAGE the photos', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Videos${Date.now()}`)).accessToken;
    const photo = await addPhoto(token, { comment: 'still' });
    const video = await upload(token, { data: makeVideo({ seconds: 1, width: 160, height: 120 }), fileName: 'clip.mp4' });
    expect(video.status, JSON.stringify(video.body)).toBe(201);
    const live = await upload(token, {
      data: makeJpeg({ comment: 'live' }),
      fileName: 'IMG_0002.jpg',
      extraFiles: {
        livePhotoData: { data: makeVideo({ seconds: 1, width: 96, height: 64 }), fileName: 'IMG_0002.mov' },
      },
    });
    expect(live.status, JSON.stringify(live.body)).toBe(201);
    const motion = (await assetInfo(token, live.body.id)).body.livePhotoVideoId as string;
    const found = async (body: Record<string, unknown>) =>
      ((await metadata(token, body)).body.assets.items as { id: string }[]).map((asset) => asset.id).sort();
    expect(await found({ type: 'VIDEO' })).toEqual([video.body.id, motion].sort());
    expect(await found({ type: 'IMAGE' })).toEqual([photo, live.body.id].sort());
  });
});
