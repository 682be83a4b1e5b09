import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as getAllAssetsV1 } from '#functions/asset/get-all-assets.ts';
import { handler as getMapMarkersV1 } from '#functions/asset/get-map-markers.ts';
import { handler as runAssetJobsV1 } from '#functions/asset/run-asset-jobs.ts';
import { handler as sendJobCommand } from '#functions/job/send-job-command.ts';
import { handler as createPartner } from '#functions/partner/create-partner.ts';
import { handler as getAssetsByCity } from '#functions/search/get-assets-by-city.ts';
import { handler as getExploreData } from '#functions/search/get-explore-data.ts';
import { handler as getSearchSuggestions } from '#functions/search/get-search-suggestions.ts';
import { handler as searchText } from '#functions/search/search.ts';
import { handler as searchAssets } from '#functions/search/search-assets.ts';
import { handler as searchMetadata } from '#functions/search/search-metadata.ts';
import { handler as searchPlaces } from '#functions/search/search-places.ts';
import { handler as getFeaturesV1 } from '#functions/server-info/get-server-features.ts';
import { handler as getMapStyle } from '#functions/system-config/get-map-style.ts';
import { handler as getAlbumMapMarkers } from '#functions/v3/album/get-album-map-markers.ts';
import { handler as updateAssetV3 } from '#functions/v3/asset/update-asset.ts';
import { handler as getMapMarkersV3 } from '#functions/v3/map/get-map-markers.ts';
import { handler as reverseGeocode } from '#functions/v3/map/reverse-geocode.ts';
import { handler as getServerConfigV3 } from '#functions/v3/server/get-server-config.ts';
import { handler as getFeaturesV3 } from '#functions/v3/server/get-server-features.ts';
import { handler as createSharedLink } from '#functions/v3/shared-link/create-shared-link.ts';
import * as assetRepo from '#shared/db/asset.repository.ts';
import { placeAsset } from '#shared/services/places.service.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addToAlbum, assetInfo, createAlbum, trash, updateAsset } from '../support/library.ts';
import { changeConfig, mediaJobsInProcess, objectCreated, turnOffMl } from '../support/media.ts';
import { makeJpeg, makeSidecar, type PhotoSpec } from '../support/photos.ts';
import { sendAcks, syncStream } from '../support/sync-client.ts';
import { cliFields, upload } from '../support/uploads.ts';

/**
 * Places and the map (docs/places.md): the media job names a photo's place from its position, as
 * Immich's metadata job does; search, suggestions, Explore, the places page, the place search and
 * the map's markers show it, on both API generations.
 */
let accounts: Awaited<ReturnType<typeof setupAccounts>>;
const media = mediaJobsInProcess();
const { settle } = media;
beforeAll(async () => {
  accounts = await setupAccounts();
  // Not about OCR or duplicates: off, as each photo's cost (test/support/ml-tasks.ts).
  await turnOffMl(accounts.admin.accessToken, ['ocr', 'duplicateDetection']);
  media.start();
});
afterAll(() => media.stop());

// Immich's e2e photo (an iPhone HEIC) was taken here: Ralston, Nebraska.
const ralston = { latitude: 41.2203, longitude: -96.0716 };
const paris = { latitude: 48.8566, longitude: 2.3522 };
const atSea = { latitude: 30, longitude: -40 };
const ralstonNames = { city: 'Ralston', state: 'Nebraska', country: 'United States of America' };

/** Uploads a photo (with a sidecar when asked), then runs the media job the bucket's event starts; its id. */
const photo = async (token: string, spec: PhotoSpec, options: { sidecar?: PhotoSpec; date?: Date; job?: boolean } = {}) => {
  const data = makeJpeg(spec);
  const reply = await upload(token, {
    data,
    fields: cliFields('photo.jpg', data.length, options.date),
    ...(options.sidecar ? { sidecar: makeSidecar(options.sidecar) } : {}),
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const id = reply.body.id as string;
  if (options.job !== false) {
    const { body } = await assetInfo(token, id);
    await objectCreated(body.originalPath);
  }
  return id;
};
const exifOf = async (token: string, id: string) => (await assetInfo(token, id)).body.exifInfo;

const setConfig = (change: (config: Record<string, any>) => Record<string, any>) => changeConfig(accounts.admin.accessToken, change);
/** The map's default styles back, as Immich's configuration has them. */
const restoreMapStyles = () =>
  setConfig((config) => ({
    ...config,
    map: {
      enabled: true,
      lightStyle: 'https://tiles.immich.cloud/v1/style/light.json',
      darkStyle: 'https://tiles.immich.cloud/v1/style/dark.json',
    },
  }));
const setReverseGeocoding = (enabled: boolean) => setConfig((config) => ({ ...config, reverseGeocoding: { enabled } }));

/** Immich's "Refresh metadata" (v1.100's POST /asset/jobs) for one asset, and its media job run. */
const refreshMetadata = async (token: string, id: string) => {
  const reply = await invoke(runAssetJobsV1, {
    method: 'POST',
    path: '/api/asset/jobs',
    headers: bearer(token),
    body: { assetIds: [id], name: 'refresh-metadata' },
  });
  expect(reply.status).toBe(204);
  await settle();
};

const markersV1 = (token: string, query: Record<string, string> = {}) =>
  invoke(getMapMarkersV1, { path: '/api/asset/map-marker', query, headers: bearer(token) });
const markersV3 = (token: string, query: Record<string, string> = {}) =>
  invoke(getMapMarkersV3, { path: '/api/map/markers', query, headers: bearer(token) });
const ids = (reply: { body: { id: string }[] }) => reply.body.map((marker) => marker.id);

describe('reverse geocoding in the media job', () => {
  it('names the place of a photo with only a position, as Immich: searchable, suggested and on the map', async () => {
    const user = await freshUser(accounts.admin.accessToken, `Placed${Date.now()}`);
    const token = user.accessToken;
    const before = new Date().toISOString();
    const id = await photo(token, { ...ralston, make: 'Apple' }, { job: false });
    // The upload writes what the file says; the place comes with the media job.
    expect(await exifOf(token, id)).toMatchObject({
      latitude: expect.closeTo(ralston.latitude, 6),
      longitude: expect.closeTo(ralston.longitude, 6),
      city: null,
      state: null,
      country: null,
    });
    expect(ids(await markersV1(token))).toEqual([id]);
    // The mobile app has synced the asset without a place (it acks what it received).
    const synced = await syncStream(token, { types: ['AssetsV2', 'AssetExifsV1'] });
    expect(synced.lines.find((line) => line.type === 'AssetExifV1')?.data).toMatchObject({ assetId: id, city: null });
    expect(
      (
        await sendAcks(
          token,
          synced.lines.filter((line) => line.type !== 'SyncCompleteV1').map((line) => line.ack),
        )
      ).status,
    ).toBe(204);
    const { body } = await assetInfo(token, id);
    expect((await objectCreated(body.originalPath)).outcomes).toEqual({ [body.originalPath]: 'made' });
    expect(await exifOf(token, id)).toMatchObject(ralstonNames);

    // Synced apps learn of it: the sync stream sends the asset's EXIF again, v1.100's delta sync lists it.
    const resynced = await syncStream(token, { types: ['AssetsV2', 'AssetExifsV1'] });
    expect(resynced.lines.filter((line) => line.type === 'AssetExifV1').map((line) => line.data)).toEqual([
      expect.objectContaining({ assetId: id, ...ralstonNames }),
    ]);
    const changed = await invoke(getAllAssetsV1, { path: '/api/asset', query: { updatedAfter: before }, headers: bearer(token) });
    expect(changed.body.find((asset: { id: string }) => asset.id === id)?.exifInfo).toMatchObject(ralstonNames);

    // Immich's e2e search cases: by city, state and country.
    for (const filter of [{ city: 'Ralston' }, { state: 'Nebraska' }, { country: 'United States of America' }]) {
      const found = await invoke(searchMetadata, { method: 'POST', path: '/api/search/metadata', headers: bearer(token), body: filter });
      expect(
        found.body.assets.items.map((asset: { id: string }) => asset.id),
        JSON.stringify(filter),
      ).toEqual([id]);
    }
    const byQuery = await invoke(searchAssets, {
      path: '/api/assets',
      query: { city: 'Ralston', state: 'Nebraska' },
      headers: bearer(token),
    });
    expect(byQuery.body.map((asset: { id: string }) => asset.id)).toEqual([id]);
    const text = await invoke(searchText, { path: '/api/search', query: { q: 'ralston nebraska' }, headers: bearer(token) });
    expect(text.body.assets.items.map((asset: { id: string }) => asset.id)).toEqual([id]);
    const suggest = async (query: Record<string, string>) =>
      (await invoke(getSearchSuggestions, { path: '/api/search/suggestions', query, headers: bearer(token) })).body;
    expect(await suggest({ type: 'country' })).toEqual(['United States of America']);
    expect(await suggest({ type: 'state', country: 'United States of America' })).toEqual(['Nebraska']);
    expect(await suggest({ type: 'city', state: 'Nebraska' })).toEqual(['Ralston']);

    // Immich's e2e map cases: the marker with its place, on both generations.
    const marker = { id, lat: expect.closeTo(ralston.latitude, 6), lon: expect.closeTo(ralston.longitude, 6), ...ralstonNames };
    expect((await markersV1(token)).body).toEqual([marker]);
    expect((await markersV3(token)).body).toEqual([marker]);
    // Someone else sees none of it.
    expect((await markersV1(accounts.user2.accessToken)).body.map((each: { id: string }) => each.id)).not.toContain(id);
  });

  it('names the place of an iPhone photo (HEIC) from the position its EXIF holds', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Phone${Date.now()}`)).accessToken;
    // test/fixtures/README.md: an iPhone-like HEIC taken in Chicago (41.8781, −87.6298).
    const data = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'iphone.heic'));
    const reply = await upload(token, { data, fields: cliFields('IMG_0001.HEIC', data.length) });
    expect(reply.status).toBe(201);
    const { body } = await assetInfo(token, reply.body.id);
    await objectCreated(body.originalPath);
    expect(await exifOf(token, reply.body.id)).toMatchObject({
      city: 'Chicago Loop',
      state: 'Illinois',
      country: 'United States of America',
    });
  });

  it("keeps the file's own place names, a sidecar's too; a photo at sea or without a position gets none", async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Named${Date.now()}`)).accessToken;
    const named = await photo(token, { ...ralston, city: 'Gotham', country: 'Narnia' });
    expect(await exifOf(token, named)).toMatchObject({ city: 'Gotham', state: null, country: 'Narnia' });
    const sidecar = await photo(token, { ...ralston }, { sidecar: { city: 'Springfield', state: 'Nowhere' } });
    expect(await exifOf(token, sidecar)).toMatchObject({ city: 'Springfield', state: 'Nowhere', country: null });
    const sea = await photo(token, atSea);
    expect(await exifOf(token, sea)).toMatchObject({ city: null, state: null, country: null });
    // In the Libyan desert, far from any village: the country alone.
    const desert = await photo(token, { latitude: 23.5, longitude: 12.5 });
    expect(await exifOf(token, desert)).toMatchObject({ city: null, state: null, country: 'Libya' });
    const nowhere = await photo(token, {});
    expect(await exifOf(token, nowhere)).toMatchObject({ latitude: null, city: null });
    expect(ids(await markersV3(token)).sort()).toEqual([named, sidecar, sea, desert].sort());
  });

  it('names a place again when the position changes (both generations), and the old one is no longer suggested', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Mover${Date.now()}`)).accessToken;
    const id = await photo(token, ralston);
    const moved = await updateAsset(token, id, paris);
    expect(moved.status).toBe(200);
    expect(moved.body.exifInfo).toMatchObject({ ...paris, city: 'Paris', state: 'Île-de-France', country: 'France' });
    const suggest = (type: string) =>
      invoke(getSearchSuggestions, { path: '/api/search/suggestions', query: { type }, headers: bearer(token) });
    expect((await suggest('city')).body).toEqual(['Paris']);
    expect((await markersV1(token)).body).toEqual([
      { id, lat: paris.latitude, lon: paris.longitude, city: 'Paris', state: 'Île-de-France', country: 'France' },
    ]);
    const back = await invoke(updateAssetV3, {
      method: 'PUT',
      path: `/api/assets/${id}`,
      headers: bearer(token),
      pathParameters: { id },
      body: { ...atSea },
    });
    expect(back.body.exifInfo).toMatchObject({ ...atSea, city: null, state: null, country: null });
    expect((await suggest('city')).body).toEqual([]);
    const byCity = await invoke(searchMetadata, {
      method: 'POST',
      path: '/api/search/metadata',
      headers: bearer(token),
      body: { city: 'Paris' },
    });
    expect(byCity.body.assets.items).toEqual([]);
  });

  it('is off when the settings turn it off (names are then left out, also on a refresh), and on again', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Offline${Date.now()}`)).accessToken;
    const named = await photo(token, ralston);
    await setReverseGeocoding(false);
    try {
      const features = await invoke(getFeaturesV1, { path: '/api/server-info/features' });
      expect(features.body).toMatchObject({ reverseGeocoding: false, map: true });
      const id = await photo(token, ralston);
      expect(await exifOf(token, id)).toMatchObject({ city: null, state: null, country: null });
      // Immich's metadata job with reverse geocoding off: a photo named before loses its names.
      await refreshMetadata(token, named);
      expect(await exifOf(token, named)).toMatchObject({ city: null, state: null, country: null });
    } finally {
      await setReverseGeocoding(true);
    }
    expect((await invoke(getFeaturesV3, { path: '/api/server/features' })).body).toMatchObject({ reverseGeocoding: true, map: true });
    await refreshMetadata(token, named);
    expect(await exifOf(token, named)).toMatchObject(ralstonNames);
  });

  it('a trash racing the naming of a place is read again, never moving a place count that is no longer there', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Racer${Date.now()}`)).accessToken;
    const id = await photo(token, ralston, { job: false });
    const stale = await assetRepo.getWithFaces(id);
    if (!stale) throw new Error('no asset');
    expect((await placeAsset(id)).outcome).toBe('named');
    // A trash prepared from the asset before it was named would take a count from the unnamed place.
    await expect(assetRepo.update(stale.asset, stale.faces, { deletedAt: new Date().toISOString() })).resolves.toEqual({
      ok: false,
      reason: 'changed',
    });
    const cities = async () =>
      (await invoke(getSearchSuggestions, { path: '/api/search/suggestions', query: { type: 'city' }, headers: bearer(token) })).body;
    expect(await cities()).toEqual(['Ralston']);
    // Many at once: the trash and the naming in either order, the counts right after both.
    const racing = await Promise.all(
      Array.from({ length: 6 }, (_, index) => photo(token, { ...ralston, comment: `race${index}` }, { job: false })),
    );
    await Promise.all(
      racing.map(async (each) => {
        const { body } = await assetInfo(token, each);
        await Promise.all([objectCreated(body.originalPath), trash(token, [each])]);
      }),
    );
    for (const each of racing) expect(await exifOf(token, each)).toMatchObject(ralstonNames);
    expect(await cities()).toEqual(['Ralston']);
    expect((await trash(token, [id])).status).toBe(204);
    expect(await cities()).toEqual([]);
  });

  it("names every library's places when the metadata job starts, and puts assets stored before the map on it", async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Library${Date.now()}`)).accessToken;
    await setReverseGeocoding(false);
    const unnamed: string[] = [];
    try {
      for (let index = 0; index < 3; index++) unnamed.push(await photo(token, { ...ralston, comment: `old${index}` }));
    } finally {
      await setReverseGeocoding(true);
    }
    // An asset stored before the map index has no `ix_geo` (docs/data-model.md, "Earlier shapes").
    const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));
    const [old] = unnamed;
    await client.send(
      new UpdateCommand({ TableName: process.env.TABLE_NAME, Key: { pk: `ASSET#${old}`, sk: 'ASSET' }, UpdateExpression: 'REMOVE ix_geo' }),
    );
    expect(ids(await markersV1(token))).not.toContain(old);

    const start = await invoke(sendJobCommand, {
      method: 'PUT',
      path: '/api/jobs/metadataExtraction',
      headers: bearer(accounts.admin.accessToken),
      pathParameters: { name: 'metadataExtraction' },
      body: { command: 'start', force: false },
    });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    await settle();
    for (const id of unnamed) expect(await exifOf(token, id)).toMatchObject(ralstonNames);
    expect(ids(await markersV1(token)).sort()).toEqual([...unnamed].sort());
    // A user may not start it.
    const refused = await invoke(sendJobCommand, {
      method: 'PUT',
      path: '/api/jobs/metadataExtraction',
      headers: bearer(token),
      pathParameters: { name: 'metadataExtraction' },
      body: { command: 'start' },
    });
    expect(refused.status).toBe(403);
  });
});

describe('one country, one name (docs/places.md)', () => {
  const usa = 'United States of America';

  it("names a file's country as a geocoded one is: photos from the file and from the position are one country in suggestions and search", async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Countries${Date.now()}`)).accessToken;
    const geocoded = await photo(token, ralston);
    const fromXmp = await photo(token, { ...ralston, city: 'Omaha', state: 'Nebraska', country: 'United States' });
    const fromIptc = await photo(token, { city: 'Boston', state: 'Massachusetts', country: 'U.S.A.', iptcLocation: true });
    const fromSidecar = await photo(token, {}, { sidecar: { city: 'Austin', country: 'USA' } });
    // The ISO code says which, in whatever language the name is written (XMP and IPTC).
    const coded = await photo(token, { city: 'Berlin', country: 'Deutschland', countryCode: 'DE' });
    const codedIptc = await photo(token, { city: 'München', country: 'Deutschland', countryCode: 'DEU', iptcLocation: true });
    const unknown = await photo(token, { city: 'Cair Paravel', country: 'Narnia' });
    expect(await exifOf(token, geocoded)).toMatchObject(ralstonNames);
    expect(await exifOf(token, fromXmp)).toMatchObject({ city: 'Omaha', state: 'Nebraska', country: usa });
    expect(await exifOf(token, fromIptc)).toMatchObject({ city: 'Boston', state: 'Massachusetts', country: usa });
    expect(await exifOf(token, fromSidecar)).toMatchObject({ city: 'Austin', country: usa });
    expect(await exifOf(token, coded)).toMatchObject({ city: 'Berlin', country: 'Germany' });
    expect(await exifOf(token, codedIptc)).toMatchObject({ city: 'München', country: 'Germany' });
    expect(await exifOf(token, unknown)).toMatchObject({ country: 'Narnia' });

    const suggest = async (query: Record<string, string>) =>
      (await invoke(getSearchSuggestions, { path: '/api/search/suggestions', query, headers: bearer(token) })).body;
    expect(await suggest({ type: 'country' })).toEqual(['Germany', 'Narnia', usa]);
    expect(await suggest({ type: 'state', country: usa })).toEqual(['Massachusetts', 'Nebraska']);
    const found = await invoke(searchMetadata, {
      method: 'POST',
      path: '/api/search/metadata',
      headers: bearer(token),
      body: { country: usa },
    });
    expect(found.body.assets.items.map((asset: { id: string }) => asset.id).sort()).toEqual(
      [geocoded, fromXmp, fromIptc, fromSidecar].sort(),
    );
  });

  it('renames the country an asset kept from its file before, when its places are named again (the metadata job, a refresh)', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `OldCountry${Date.now()}`)).accessToken;
    const geocoded = await photo(token, ralston);
    const old = await photo(token, { city: 'Omaha', country: 'United States' });
    // As a build before this stored it: the file's words as written, counted in the place facets.
    const stored = await assetRepo.get(old);
    if (!stored) throw new Error('no asset');
    await assetRepo.recordPlaces(stored, { city: 'Omaha', state: null, country: 'United States' }, false);
    const suggest = async () =>
      (await invoke(getSearchSuggestions, { path: '/api/search/suggestions', query: { type: 'country' }, headers: bearer(token) })).body;
    expect(await suggest()).toEqual(['United States', usa]);
    expect((await placeAsset(old)).outcome).toBe('file');
    expect(await exifOf(token, old)).toMatchObject({ city: 'Omaha', state: null, country: usa });
    expect(await suggest()).toEqual([usa]);
    // Named once: again changes nothing.
    expect((await placeAsset(old)).outcome).toBe('file');
    expect(await exifOf(token, geocoded)).toMatchObject(ralstonNames);
  });
});

describe('Explore, the places page and the place search', () => {
  it('shows a city with five photos in Explore, one photo a city on the places page, and finds places by name', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Explorer${Date.now()}`)).accessToken;
    const taken = (day: number) => new Date(Date.UTC(2024, 0, day));
    const inRalston: string[] = [];
    for (let day = 1; day <= 5; day++) inRalston.push(await photo(token, { ...ralston, comment: `r${day}` }, { date: taken(day) }));
    const inParis = await photo(token, paris, { date: taken(9) });
    const explore = await invoke(getExploreData, { path: '/api/search/explore', headers: bearer(token) });
    expect(explore.body[0]).toMatchObject({ fieldName: 'exifInfo.city', items: [{ value: 'Ralston', data: { id: inRalston[4] } }] });

    const cities = await invoke(getAssetsByCity, { path: '/api/search/cities', headers: bearer(token) });
    expect(cities.status).toBe(200);
    expect(cities.body.map((asset: { id: string; exifInfo: { city: string } }) => [asset.exifInfo.city, asset.id])).toEqual([
      ['Paris', inParis],
      ['Ralston', inRalston[4]],
    ]);

    const places = await invoke(searchPlaces, { path: '/api/search/places', query: { name: 'ralst' }, headers: bearer(token) });
    expect(places.status).toBe(200);
    expect(places.body[0]).toEqual({
      name: 'Ralston',
      latitude: expect.closeTo(41.2, 1),
      longitude: expect.closeTo(-96.04, 1),
      admin1name: 'Nebraska',
      admin2name: 'Douglas County',
    });
    const empty = await invoke(searchPlaces, { path: '/api/search/places', query: {}, headers: bearer(token) });
    expect(empty).toMatchObject({ status: 400, body: { message: ['name should not be empty', 'name must be a string'] } });
    const unauthenticated = await invoke(searchPlaces, { path: '/api/search/places', query: { name: 'x' } });
    expect(unauthenticated.status).toBe(401);
  });
});

describe('map markers', () => {
  it("filters as Immich's do: archived, favourites, dates, partners, shared albums", async () => {
    const owner = await freshUser(accounts.admin.accessToken, `Mapper${Date.now()}`);
    const partner = await freshUser(accounts.admin.accessToken, `Sharer${Date.now()}`);
    const token = owner.accessToken;
    const day = (n: number) => new Date(Date.UTC(2023, 5, n));
    const plain = await photo(token, ralston, { date: day(1) });
    const favourite = await photo(token, paris, { date: day(2) });
    const archived = await photo(token, ralston, { date: day(3) });
    const trashed = await photo(token, ralston, { date: day(4) });
    expect((await updateAsset(token, favourite, { isFavorite: true })).status).toBe(200);
    expect((await updateAsset(token, archived, { isArchived: true })).status).toBe(200);
    expect((await trash(token, [trashed])).status).toBe(204);
    const theirs = await photo(partner.accessToken, paris, { date: day(5) });
    const theirArchive = await photo(partner.accessToken, paris, { date: day(6) });
    expect((await updateAsset(partner.accessToken, theirArchive, { isArchived: true })).status).toBe(200);
    await invoke(createPartner, {
      method: 'POST',
      path: `/api/partner/${owner.userId}`,
      headers: bearer(partner.accessToken),
      pathParameters: { id: owner.userId },
    });

    // v1.100: archived and not unless asked; newest first.
    expect(ids(await markersV1(token))).toEqual([archived, favourite, plain]);
    expect(ids(await markersV1(token, { isArchived: 'true' }))).toEqual([archived]);
    expect(ids(await markersV1(token, { isArchived: 'false' }))).toEqual([favourite, plain]);
    expect(ids(await markersV1(token, { isFavorite: 'true' }))).toEqual([favourite]);
    expect(ids(await markersV1(token, { fileCreatedAfter: day(2).toISOString(), fileCreatedBefore: day(3).toISOString() }))).toEqual([
      archived,
      favourite,
    ]);
    // A partner's archive stays theirs.
    expect(ids(await markersV1(token, { withPartners: 'true' }))).toEqual([theirs, archived, favourite, plain]);
    expect((await markersV1(token, { isArchived: 'maybe' })).body.message).toEqual(['isArchived must be a boolean value']);

    // v3: the timeline only, unless isArchived (then one's own archive too).
    expect(ids(await markersV3(token))).toEqual([favourite, plain]);
    expect(ids(await markersV3(token, { isArchived: 'true' }))).toEqual([archived, favourite, plain]);
    expect(ids(await markersV3(token, { withPartners: 'true' }))).toEqual([theirs, favourite, plain]);
    expect((await markersV3(token, { fileCreatedAfter: 'yesterday' })).status).toBe(400);

    // Shared albums: an album another user shares brings its assets.
    const stranger = await freshUser(accounts.admin.accessToken, `Stranger${Date.now()}`);
    const far = await photo(stranger.accessToken, paris, { date: day(7) });
    const album = await createAlbum(stranger.accessToken, { albumName: 'Trip', assetIds: [far], sharedWithUserIds: [owner.userId] });
    expect(ids(await markersV3(token))).not.toContain(far);
    expect(ids(await markersV3(token, { withSharedAlbums: 'true' }))).toEqual([far, favourite, plain]);

    // An album's markers (v3.2): its members, for those who may read it; a link visitor unless metadata is hidden.
    expect((await addToAlbum(stranger.accessToken, album.id, [theirs])).status).toBe(200);
    const albumMarkers = (headers: Record<string, string>, query: Record<string, string> = {}) =>
      invoke(getAlbumMapMarkers, { path: `/api/albums/${album.id}/map-markers`, headers, query, pathParameters: { id: album.id } });
    expect(ids(await albumMarkers(bearer(token)))).toEqual([far]);
    expect((await albumMarkers(bearer(partner.accessToken))).status).toBe(400);
    const link = async (showMetadata: boolean) =>
      (
        await invoke(createSharedLink, {
          method: 'POST',
          path: '/api/shared-links',
          headers: bearer(stranger.accessToken),
          body: { type: 'ALBUM', albumId: album.id, showMetadata },
        })
      ).body.key as string;
    expect(ids(await albumMarkers({}, { key: await link(true) }))).toEqual([far]);
    expect((await albumMarkers({}, { key: await link(false) })).body).toEqual([]);
  });
});

describe('v3 reverse geocoding, the map style and the features', () => {
  it('names a point, nulls at sea; refuses a point off the globe', async () => {
    const token = accounts.user1.accessToken;
    const at = (query: Record<string, string>) =>
      invoke(reverseGeocode, { path: '/api/map/reverse-geocode', query, headers: bearer(token) });
    expect((await at({ lat: '41.2203', lon: '-96.0716' })).body).toEqual([ralstonNames]);
    expect((await at({ lat: '30', lon: '-40' })).body).toEqual([{ city: null, state: null, country: null }]);
    // No place within the distance, on land: the country alone, as Immich v3 names it from its outlines.
    expect((await at({ lat: '72', lon: '-40' })).body).toEqual([{ city: null, state: null, country: 'Greenland' }]);
    expect((await at({ lat: '44.6', lon: '-110.5' })).body).toEqual([{ city: null, state: null, country: 'United States of America' }]);
    const off = await at({ lat: '91', lon: '0' });
    expect(off.status).toBe(400);
    expect(off.body.errors[0]).toMatchObject({ path: ['lat'] });
    expect((await at({ lat: 'x', lon: '0' })).status).toBe(400);
  });

  it("answers v1.100's style.json from the URL the settings name, and v3's style URLs in the server config", async () => {
    const styles: Server = createServer((request, response) => {
      if (request.url === '/light.json') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ version: 8, id: 'immich-map-light', sources: {}, layers: [] }));
      } else {
        response.writeHead(404);
        response.end();
      }
    });
    await new Promise<void>((resolve) => styles.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(styles.address() as AddressInfo).port}`;
    try {
      await setConfig((config) => ({
        ...config,
        map: { enabled: true, lightStyle: `${base}/light.json`, darkStyle: `${base}/missing.json` },
      }));
      const style = (theme?: string, token = accounts.user1.accessToken) =>
        invoke(getMapStyle, {
          path: '/api/system-config/map/style.json',
          query: theme === undefined ? {} : { theme },
          headers: bearer(token),
        });
      // Immich's e2e cases: any signed-in user, the theme checked.
      expect(await style('light')).toMatchObject({ status: 200, body: { id: 'immich-map-light' } });
      for (const theme of ['dark1', '', undefined]) {
        expect((await style(theme)).body).toMatchObject({
          statusCode: 400,
          message: ['theme must be one of the following values: light, dark'],
        });
      }
      expect((await invoke(getMapStyle, { path: '/api/system-config/map/style.json', query: { theme: 'light' } })).status).toBe(401);
      // A style that cannot be read is the upstream's failure, said as such.
      expect(await style('dark')).toMatchObject({ status: 502, body: { statusCode: 502, error: 'Bad Gateway' } });

      const config = await invoke(getServerConfigV3, { path: '/api/server/config' });
      expect(config.body).toMatchObject({ mapLightStyleUrl: `${base}/light.json`, mapDarkStyleUrl: `${base}/missing.json` });
      await setConfig((current) => ({ ...current, map: { ...current.map, enabled: false } }));
      expect((await invoke(getFeaturesV3, { path: '/api/server/features' })).body).toMatchObject({ map: false, reverseGeocoding: true });
    } finally {
      await restoreMapStyles();
      styles.close();
    }
  });

  it('reads the style only over http(s), never redirected to this machine or a private or metadata address, bounded in size (issue 49, Low 7)', async () => {
    // What a redirect must never reach: a service on loopback (here: the "secret" server).
    const secretSeen: string[] = [];
    const secret: Server = createServer((request, response) => {
      secretSeen.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ secret: 'AKIA-not-for-visitors' }));
    });
    const styles: Server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://x');
      const to = url.searchParams.get('to');
      if (url.pathname === '/light.json') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ version: 8, id: 'immich-map-light', sources: {}, layers: [] }));
      } else if (url.pathname === '/moved' && to) {
        response.writeHead(302, { location: to });
        response.end();
      } else if (url.pathname === '/huge.json') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ version: 8, id: 'huge', padding: 'x'.repeat(5 * 1024 * 1024) }));
      } else {
        response.writeHead(404);
        response.end();
      }
    });
    for (const server of [secret, styles]) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const secretPort = (secret.address() as AddressInfo).port;
    const base = `http://127.0.0.1:${(styles.address() as AddressInfo).port}`;
    const style = () =>
      invoke(getMapStyle, {
        path: '/api/system-config/map/style.json',
        query: { theme: 'light' },
        headers: bearer(accounts.user1.accessToken),
      });
    const withStyle = (lightStyle: string) =>
      setConfig((config) => ({ ...config, map: { enabled: true, lightStyle, darkStyle: `${base}/light.json` } }));
    try {
      await withStyle(`${base}/light.json`);
      expect(await style()).toMatchObject({ status: 200, body: { id: 'immich-map-light' } });
      // Redirected within the origin named: read.
      await withStyle(`${base}/moved?to=${encodeURIComponent('/light.json')}`);
      expect(await style()).toMatchObject({ status: 200, body: { id: 'immich-map-light' } });

      const refused = [
        `${base}/moved?to=${encodeURIComponent(`http://127.0.0.1:${secretPort}/`)}`,
        `${base}/moved?to=${encodeURIComponent(`http://localhost:${secretPort}/`)}`,
        `${base}/moved?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data/iam/security-credentials/')}`,
        `${base}/moved?to=${encodeURIComponent('http://10.1.2.3/style.json')}`,
        `${base}/moved?to=${encodeURIComponent('file:///etc/passwd')}`,
        'file:///etc/passwd',
        'http://169.254.169.254/latest/meta-data/',
        `${base}/huge.json`,
      ];
      for (const url of refused) {
        await withStyle(url);
        const reply = await style();
        expect(reply, url).toMatchObject({ status: 400, body: { statusCode: 400, error: 'Bad Request' } });
        expect(reply.body.message, url).toMatch(/^The map style URL is not read: /);
      }
      // On Lambda, the runtime API (the next event is another user's request) is never read.
      process.env.AWS_LAMBDA_RUNTIME_API = `127.0.0.1:${secretPort}`;
      try {
        await withStyle(`http://localhost:${secretPort}/2018-06-01/runtime/invocation/next`);
        expect(await style()).toMatchObject({ status: 400, body: { message: expect.stringContaining('Lambda runtime API') } });
      } finally {
        delete process.env.AWS_LAMBDA_RUNTIME_API;
      }
      expect(secretSeen).toEqual([]);
    } finally {
      await restoreMapStyles();
      secret.close();
      styles.close();
    }
  });
});
