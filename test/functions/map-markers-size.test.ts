import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getMapMarkersV1 } from '#functions/asset/get-map-markers.ts';
import { handler as createPartner } from '#functions/partner/create-partner.ts';
import { handler as getMapMarkersV3 } from '#functions/v3/map/get-map-markers.ts';
import type { AssetRecord } from '#shared/model/asset.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { bangkok, geoLibrary, markersOf, writeLibrary } from '../support/geo-library.ts';
import { invoke } from '../support/invoke.ts';

/**
 * A large library's map (docs/places.md, "The map"; issue 55): every marker in one answer, as
 * Immich sends it, streamed as the map index is read (many of its 16 KB pieces here; past Lambda's
 * 6 MB from a function with a capped heap in test/e2e/map-markers.test.ts), its ranges several at
 * once and its owners merged newest first, gzip-compressed when accepted.
 */
const manyPieces = 256 * 1024;
let token: string;
let mine: AssetRecord[];
let theirs: AssetRecord[];
beforeAll(async () => {
  const { admin } = await setupAccounts();
  const user = await freshUser(admin.accessToken, 'Mapper');
  const partner = await freshUser(admin.accessToken, 'MapPartner');
  token = user.accessToken;
  // Named in Thai script (test/support/geo-library.ts `bangkok`, three times the bytes a marker):
  // 657 KB of v3 markers, the pieces 4,600 short-named ones made (645 KB), from a third of the items.
  mine = geoLibrary(user.id, 1_000, 1, bangkok);
  theirs = geoLibrary(partner.id, 550, 2, bangkok);
  await writeLibrary([...mine, ...theirs]);
  const shared = await invoke(createPartner, {
    method: 'POST',
    path: `/api/partner/${user.id}`,
    headers: bearer(partner.accessToken),
    pathParameters: { id: user.id },
  });
  expect(shared.status).toBe(201);
});

const visible = (record: AssetRecord) => record.visibility === 'timeline';

describe('the map markers of a large library', () => {
  it('v3: every marker of the caller and a partner, newest first, in many pieces, complete and gzip-compressed', async () => {
    const reply = await invoke(getMapMarkersV3, {
      path: '/api/map/markers',
      query: { withPartners: true },
      headers: { ...bearer(token), 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(reply.status).toBe(200);
    expect(reply.complete).toBe(true);
    expect(reply.headers['content-encoding']).toBe('gzip');
    const body = JSON.stringify(reply.body);
    expect(Buffer.byteLength(body)).toBeGreaterThan(manyPieces);
    expect(body).toBe(markersOf([...mine, ...theirs], visible));
  });

  it('v3: the filters as before: one’s own archive, favourites, a taken window', async () => {
    const after = '2010-03-01T00:00:00.000Z';
    const before = '2016-07-15T12:00:00.000Z';
    const reply = await invoke(getMapMarkersV3, {
      path: '/api/map/markers',
      query: { isArchived: true, isFavorite: true, fileCreatedAfter: after, fileCreatedBefore: before },
      headers: bearer(token),
    });
    expect(reply.status).toBe(200);
    const expected = markersOf(
      mine,
      (record) => record.isFavorite && record.visibility !== 'hidden' && record.fileCreatedAt >= after && record.fileCreatedAt <= before,
    );
    expect(expected.length).toBeGreaterThan(1_000);
    expect(JSON.stringify(reply.body)).toBe(expected);
  });

  it('v1.100: archived and not, a partner’s timeline, plainly to a client refusing gzip', async () => {
    const reply = await invoke(getMapMarkersV1, {
      path: '/api/asset/map-marker',
      query: { withPartners: true },
      headers: { ...bearer(token), 'accept-encoding': 'identity' },
    });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-encoding']).toBeUndefined();
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.stringify(reply.body)).toBe(markersOf([...mine, ...theirs.filter(visible)], (record) => record.visibility !== 'hidden'));
  });

  it('answers a bad query or no session with Immich’s JSON error before any marker', async () => {
    const bad = await invoke(getMapMarkersV3, { path: '/api/map/markers', query: { isFavorite: 'sometimes' }, headers: bearer(token) });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ message: 'Validation failed', errors: [{ path: ['isFavorite'] }] });
    const anonymous = await invoke(getMapMarkersV1, { path: '/api/asset/map-marker' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ statusCode: 401, message: expect.any(String) });
  });
});
