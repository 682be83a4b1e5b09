import * as v1 from '@immich/sdk';
import * as v3 from '@immich/sdk-v3';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Deployment } from '#infra/local/deployed/assembly.ts';
import type { AssetRecord } from '#shared/model/asset.ts';
import { bangkok, geoLibrary, markersOf, writeLibrary } from '../support/geo-library.ts';
import { target, useServer } from '../support/server.ts';

type Opts = { baseUrl: string; headers: Record<string, string> };

// Deployed, the markers' functions get a heap far smaller than the markers (a function URL in
// RESPONSE_STREAM mode behind the distribution): an answer held before it is sent would not fit.
const markerHeapMb = 48;
const capMarkerHeap = (deployment: Deployment): void => {
  for (const fn of deployment.functions.values())
    if (/getMapMarkers \(GET \/api\/(map\/markers|asset\/map-marker)\)/.test(fn.description)) fn.memoryMb = markerHeapMb;
};

/**
 * Every marker of a large library through the server itself, with Immich's SDKs of both
 * generations and the web app's call (docs/places.md, "The map"): complete, in Immich's order.
 * Deployed, 16,000 markers named in Thai script (test/support/geo-library.ts `bangkok`: 6.9 MB
 * from v3's route and 7.1 MB from v1.100's, past Lambda's 6 MB, with a third of the 48,000 items
 * short-named ones take to write) from functions whose heap is capped at 48 MB; from source
 * (`npm start`, which has no such limit) 1,500 (640 KB, more of the stream's 16 KB pieces than
 * 4,000 short-named ones made). Both generations' routes (two functions) send the whole library
 * past 6 MB; the web app's call, the same function as v3's, asks for a window of years as its
 * map's date settings do, which keeps the file to two full reads.
 */
describe('the map markers of a large library over HTTP', () => {
  const server = useServer({ adjust: capMarkerHeap });
  const count = target() === 'deployed' ? 16_000 : 1_500;
  let me: Opts;
  let token: string;
  let library: AssetRecord[];

  beforeAll(async () => {
    const { baseUrl } = server;
    await v3.signUpAdmin({ signUpDto: { email: 'admin@immich.cloud', password: 'password', name: 'Admin' } }, { baseUrl });
    const admin = await v3.login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl });
    token = admin.accessToken;
    me = { baseUrl, headers: { Authorization: `Bearer ${token}` } };
    library = geoLibrary(admin.userId, count, 3, bangkok);
    await writeLibrary(library);
  });

  it('v3’s getMapMarkers: every marker (deployed past 6 MB), newest first, as Immich’s fields', async () => {
    const markers = await v3.getMapMarkers({}, me);
    const expected = markersOf(library, (record) => record.visibility === 'timeline');
    expect(Buffer.byteLength(JSON.stringify(markers))).toBeGreaterThan(target() === 'deployed' ? 6_291_456 : 256 * 1024);
    expect(JSON.stringify(markers)).toBe(expected);
  });

  it('v1.100’s getMapMarkers: every marker (deployed past 6 MB), archived ones too, favourites and a window as asked', async () => {
    const markers = await v1.getMapMarkers({}, me);
    expect(Buffer.byteLength(JSON.stringify(markers))).toBeGreaterThan(target() === 'deployed' ? 6_291_456 : 256 * 1024);
    expect(JSON.stringify(markers)).toBe(markersOf(library, (record) => record.visibility !== 'hidden'));
    const after = '2012-01-01T00:00:00.000Z';
    const before = '2013-06-30T00:00:00.000Z';
    const some = await v1.getMapMarkers({ isFavorite: true, isArchived: false, fileCreatedAfter: after, fileCreatedBefore: before }, me);
    const expected = markersOf(
      library,
      (record) => record.visibility === 'timeline' && record.isFavorite && record.fileCreatedAt >= after && record.fileCreatedAt <= before,
    );
    expect(some.length).toBeGreaterThan(count / 400);
    expect(JSON.stringify(some)).toBe(expected);
  });

  it('the web app’s call (its session cookie, its filters, gzip), and an API key by its permission', async () => {
    // The web map's settings: archived ones, partners' and shared albums', and the dates it is set to.
    const since = '2019-01-01T00:00:00.000Z';
    const query = `isArchived=true&withPartners=true&withSharedAlbums=true&fileCreatedAfter=${since}`;
    const web = await fetch(`${server.baseUrl}/map/markers?${query}`, {
      headers: { cookie: `immich_access_token=${token}`, 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(web.status).toBe(200);
    expect(web.headers.get('content-encoding')).toBe('gzip');
    expect(web.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // fetch undoes the gzip.
    const shown = await web.text();
    expect(JSON.parse(shown).length).toBeGreaterThan(count / 5);
    expect(shown).toBe(markersOf(library, (record) => record.visibility !== 'hidden' && record.fileCreatedAt >= since));

    const reader = await v3.createApiKey({ apiKeyCreateDto: { name: 'map', permissions: [v3.Permission.MapRead] } }, me);
    const other = await v3.createApiKey({ apiKeyCreateDto: { name: 'assets', permissions: [v3.Permission.AssetRead] } }, me);
    const window = 'fileCreatedAfter=2020-01-01T00:00:00.000Z';
    const allowed = await fetch(`${server.baseUrl}/map/markers?${window}`, { headers: { 'x-api-key': reader.secret } });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toBe(
      markersOf(library, (record) => record.visibility === 'timeline' && record.fileCreatedAt >= '2020-01-01T00:00:00.000Z'),
    );
    const refused = await fetch(`${server.baseUrl}/map/markers?${window}`, { headers: { 'x-api-key': other.secret } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ message: expect.stringContaining('map.read') });
    const anonymous = await fetch(`${server.baseUrl}/asset/map-marker`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ statusCode: 401 });
  });
});
