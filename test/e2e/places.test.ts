import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as v1 from '@immich/sdk';
import * as v3 from '@immich/sdk-v3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { makeJpeg, makeSidecar } from '../support/photos.ts';
import { adminWithApiKey, type SdkUser, sdkUpload } from '../support/sdk.ts';
import { target, useServer } from '../support/server.ts';
import { hangGuard } from '../support/timeouts.ts';

/**
 * Places and the map (docs/places.md) through Immich's SDKs and the server (the local one, or the
 * synthesized stack's bundles: the media function names places from the index shipped beside its
 * bundle), with Immich's own e2e cases: its photos at Ralston, Nebraska and Palisade, Colorado,
 * search by city, state and country, suggestions, markers with their filters, the map style and
 * its reverse-geocoding points.
 */
describe('places and the map through @immich/sdk 1.100.0 and 3.2.2', () => {
  const server = useServer();
  let admin: SdkUser;
  let partner: SdkUser;
  let partnerId: string;
  let ralston: string;
  let palisade: string;
  let archived: string;
  let partnerArchived: string;
  let styles: Server;
  let styleBase: string;

  /** The asset once its place is named (the media function runs after the upload's answer). */
  const named = async (user: SdkUser, id: string) => {
    const deadline = Date.now() + hangGuard.wait;
    let asset = await v1.getAssetInfo({ id }, user);
    while (!asset.exifInfo?.country && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      asset = await v1.getAssetInfo({ id }, user);
    }
    return asset;
  };
  // Taken a day apart, in upload order: the markers' order (newest first) is Immich's e2e order.
  let day = 0;
  const gps = (latitude: number, longitude: number, comment: string) =>
    makeJpeg({
      width: 64,
      height: 48,
      latitude,
      longitude,
      comment,
      dateTimeOriginal: `2023:06:${String(++day).padStart(2, '0')} 10:00:00`,
    });

  beforeAll(async () => {
    admin = await adminWithApiKey(server.baseUrl, 'places@immich.cloud');
    // Not about OCR or duplicates or faces: off, as each photo's cost (test/support/ml-tasks.ts).
    await turnOffMlTasks(admin, ['facialRecognition', 'ocr', 'duplicateDetection']);
    const email = `partner${Date.now()}@immich.cloud`;
    const created = await v1.createUser({ createUserDto: { email, password: 'password', name: 'Partner' } }, admin);
    partnerId = created.id;
    const { accessToken } = await v1.login({ loginCredentialDto: { email, password: 'password' } }, { baseUrl: server.baseUrl });
    partner = { baseUrl: server.baseUrl, headers: { Authorization: `Bearer ${accessToken}` } };
    // Immich's e2e photos: IMG_2682.heic at Ralston, thompson-springs.jpg at Palisade (as they read),
    // datetimeoriginal-gps.jpg archived; the partner's archived photo.
    ralston = await sdkUpload(admin, gps(41.2203, -96.071625, 'ralston'), 'IMG_2682.jpg');
    palisade = await sdkUpload(admin, gps(39.115, -108.400968, 'palisade'), 'thompson-springs.jpg');
    archived = await sdkUpload(admin, gps(39.115, -108.400968, 'archived'), 'datetimeoriginal-gps.jpg');
    partnerArchived = await sdkUpload(partner, gps(39.115, -108.400968, 'partner'), 'thompson-springs.jpg');
    for (const [user, id] of [
      [admin, ralston],
      [admin, palisade],
      [admin, archived],
      [partner, partnerArchived],
    ] as const)
      await named(user, id);
    await v1.updateAssets({ assetBulkUpdateDto: { ids: [archived], isArchived: true } }, admin);
    await v1.updateAssets({ assetBulkUpdateDto: { ids: [partnerArchived], isArchived: true } }, partner);
    const me = await v1.getMyUserInfo(admin);
    await v1.createPartner({ id: me.id }, partner);

    styles = createServer((request, response) => {
      const theme = /^\/(light|dark)\.json$/.exec(request.url ?? '')?.[1];
      response.writeHead(theme ? 200 : 404, { 'content-type': 'application/json' });
      response.end(theme ? JSON.stringify({ version: 8, id: `immich-map-${theme}`, sources: {}, layers: [] }) : '{}');
    });
    await new Promise<void>((resolve) => styles.listen(0, '127.0.0.1', resolve));
    styleBase = `http://127.0.0.1:${(styles.address() as AddressInfo).port}`;
  });
  afterAll(() => styles?.close());

  const palisadeMarker = {
    city: 'Palisade',
    country: 'United States of America',
    id: expect.any(String),
    lat: expect.closeTo(39.115),
    lon: expect.closeTo(-108.400968),
    state: 'Colorado',
  };
  const ralstonMarker = {
    city: 'Ralston',
    country: 'United States of America',
    id: expect.any(String),
    lat: expect.closeTo(41.2203),
    lon: expect.closeTo(-96.071625),
    state: 'Nebraska',
  };

  it("names the uploads' places, and finds them by city, state and country (Immich's search cases)", async () => {
    expect((await v1.getAssetInfo({ id: ralston }, admin)).exifInfo).toMatchObject({
      city: 'Ralston',
      state: 'Nebraska',
      country: 'United States of America',
    });
    const found = async (dto: v1.MetadataSearchDto) =>
      (await v1.searchMetadata({ metadataSearchDto: dto }, admin)).assets.items.map((asset) => asset.id).sort();
    expect(await found({ city: 'Ralston' })).toEqual([ralston]);
    expect(await found({ state: 'Nebraska' })).toEqual([ralston]);
    expect(await found({ country: 'United States of America' })).toEqual([palisade, ralston].sort());
    const v3Found = await v3.searchAssets({ metadataSearchDto: { city: 'Palisade', visibility: v3.AssetVisibility.Timeline } }, admin);
    expect(v3Found.assets.items.map((asset) => asset.id)).toEqual([palisade]);
    // Immich's suggestion cases (v3's state names).
    expect(await v1.getSearchSuggestions({ $type: v1.SearchSuggestionType.Country }, admin)).toEqual(['United States of America']);
    expect(await v1.getSearchSuggestions({ $type: v1.SearchSuggestionType.State }, admin)).toEqual(['Colorado', 'Nebraska']);
    expect(await v1.getSearchSuggestions({ $type: v1.SearchSuggestionType.City }, admin)).toEqual(['Palisade', 'Ralston']);
  });

  it("answers Immich v3's map cases: every non-archived marker, one's own archive, never a partner's", async () => {
    expect(await v3.getMapMarkers({}, admin)).toEqual([palisadeMarker, ralstonMarker]);
    const withArchive = (await v3.getMapMarkers({ withPartners: true, isArchived: true }, admin)).map((marker) => marker.id);
    expect(withArchive).toContain(archived);
    expect(withArchive).not.toContain(partnerArchived);
    expect((await v3.getMapMarkers({ isArchived: true }, admin)).map((marker) => marker.id)).toContain(archived);
    // v1.100's markers: archived ones too unless asked.
    expect((await v1.getMapMarkers({}, admin)).map((marker) => marker.id).sort()).toEqual([archived, palisade, ralston].sort());
    expect((await v1.getMapMarkers({ isArchived: false }, admin)).map((marker) => marker.id).sort()).toEqual([palisade, ralston].sort());
    expect(await v1.getMapMarkers({}, partner)).toEqual([expect.objectContaining({ id: partnerArchived, city: 'Palisade' })]);
    expect(partnerId).toBeTruthy();
  });

  it("names Immich's reverse-geocoding points, and finds places by name", async () => {
    for (const [lat, lon, result] of [
      [-33.85897705866313, 151.27849073027048, { city: 'Vaucluse', state: 'New South Wales', country: 'Australia' }],
      [-37.76573239917475, 144.7524531648833, { city: 'Ravenhall', state: 'Victoria', country: 'Australia' }],
      [-31.894346156789997, 115.75761710390464, { city: 'Scarborough', state: 'Western Australia', country: 'Australia' }],
      // Far from any place, on land: the country alone (Immich v3's fallback to country outlines).
      [72, -40, { city: null, state: null, country: 'Greenland' }],
    ] as const)
      expect(await v3.reverseGeocode({ lat, lon }, admin)).toEqual([result]);
    // A photo in the Libyan desert: the media function names the country alone.
    const desert = await sdkUpload(partner, gps(23.5, 12.5, 'desert'), 'desert.jpg');
    expect((await named(partner, desert)).exifInfo).toMatchObject({ city: null, state: null, country: 'Libya' });
    const refused = await fetch(`${server.baseUrl}/map/reverse-geocode?lat=91&lon=123.456`, { headers: admin.headers });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ errors: [{ path: ['lat'], message: 'Too big: expected number to be <=90' }] });
    const missing = await fetch(`${server.baseUrl}/map/reverse-geocode?lon=123`, { headers: admin.headers });
    expect(await missing.json()).toMatchObject({ errors: [{ path: ['lat'], message: 'Invalid input: expected number, received NaN' }] });

    expect((await v1.searchPlaces({ name: 'palisade' }, admin))[0]).toMatchObject({ name: 'Palisade', admin1name: 'Colorado' });
    expect((await v3.searchPlaces({ name: 'ralston' }, admin))[0]).toMatchObject({ name: 'Ralston', admin1name: 'Nebraska' });
    const cities = await v3.getAssetsByCity(admin);
    expect(cities.map((asset) => asset.exifInfo?.city)).toEqual(['Palisade', 'Ralston']);
    expect((await v1.getAssetsByCity(admin)).map((asset) => asset.id)).toEqual(cities.map((asset) => asset.id));
  });

  it("serves the map style the settings name (Immich's style.json cases) and reports the map and geocoding on", async () => {
    const config = await v1.getConfig(admin);
    await v1.updateConfig(
      {
        systemConfigDto: { ...config, map: { enabled: true, lightStyle: `${styleBase}/light.json`, darkStyle: `${styleBase}/dark.json` } },
      },
      admin,
    );
    try {
      expect(await v1.getMapStyle({ theme: v1.MapTheme.Light }, admin)).toMatchObject({ id: 'immich-map-light' });
      expect(await v1.getMapStyle({ theme: v1.MapTheme.Dark }, partner)).toMatchObject({ id: 'immich-map-dark' });
      const wrong = await fetch(`${server.baseUrl}/system-config/map/style.json?theme=dark1`, { headers: admin.headers });
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toMatchObject({ message: ['theme must be one of the following values: light, dark'] });
      expect((await fetch(`${server.baseUrl}/system-config/map/style.json?theme=light`)).status).toBe(401);
      expect(await v3.getServerConfig({ baseUrl: server.baseUrl })).toMatchObject({ mapLightStyleUrl: `${styleBase}/light.json` });
    } finally {
      await v1.updateConfig({ systemConfigDto: config }, admin);
    }
    expect(await v1.getServerFeatures({ baseUrl: server.baseUrl })).toMatchObject({ map: true, reverseGeocoding: true });
    expect(await v3.getServerFeatures({ baseUrl: server.baseUrl })).toMatchObject({ map: true, reverseGeocoding: true });
  });
  it("shows a city of five photos in Explore, keeps a sidecar's own city, and names nothing while reverse geocoding is off", async () => {
    const email = `explorer${Date.now()}@immich.cloud`;
    await v1.createUser({ createUserDto: { email, password: 'password', name: 'Explorer' } }, admin);
    const { accessToken } = await v1.login({ loginCredentialDto: { email, password: 'password' } }, { baseUrl: server.baseUrl });
    const user: SdkUser = { baseUrl: server.baseUrl, headers: { Authorization: `Bearer ${accessToken}` } };
    const five: string[] = [];
    for (let index = 0; index < 5; index++) five.push(await sdkUpload(user, gps(39.115, -108.400968, `five${index}`), `five${index}.jpg`));
    for (const id of five) await named(user, id);
    const [places] = await v3.getExploreData(user);
    expect(places).toMatchObject({ fieldName: 'exifInfo.city', items: [{ value: 'Palisade' }] });
    expect((await v1.getExploreData(user))[0]?.items.map((item) => item.value)).toEqual(['Palisade']);

    /** The asset once its previews exist (the media function names places before it makes them). */
    const processed = async (id: string) => {
      const deadline = Date.now() + hangGuard.wait;
      let asset = await v1.getAssetInfo({ id }, user);
      while (!asset.thumbhash && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        asset = await v1.getAssetInfo({ id }, user);
      }
      expect(asset.thumbhash).toBeTruthy();
      return asset;
    };
    const withSidecar = await v1.uploadFile(
      {
        createAssetDto: {
          assetData: new File([new Uint8Array(gps(41.2203, -96.0716, 'sidecar'))], 'sidecar.jpg'),
          sidecarData: new File([new Uint8Array(makeSidecar({ city: 'Springfield', state: 'Nowhere' }))], 'sidecar.jpg.xmp'),
          deviceAssetId: 'sidecar.jpg',
          deviceId: 'e2e',
          fileCreatedAt: '2024-01-01T00:00:00.000Z',
          fileModifiedAt: '2024-01-01T00:00:00.000Z',
        },
      },
      user,
    );
    expect((await processed(withSidecar.id)).exifInfo).toMatchObject({ city: 'Springfield', state: 'Nowhere', country: null });

    const config = await v1.getConfig(admin);
    await v1.updateConfig({ systemConfigDto: { ...config, reverseGeocoding: { enabled: false } } }, admin);
    try {
      // Deployed, the settings reach every function within a few seconds (each keeps them that long).
      if (target() === 'deployed') await new Promise((resolve) => setTimeout(resolve, 5_500));
      expect(await v1.getServerFeatures({ baseUrl: server.baseUrl })).toMatchObject({ reverseGeocoding: false });
      const off = await sdkUpload(user, gps(41.2203, -96.0716, 'off'), 'off.jpg');
      expect((await processed(off)).exifInfo).toMatchObject({ city: null, state: null, country: null });
    } finally {
      await v1.updateConfig({ systemConfigDto: config }, admin);
    }
  });
});
