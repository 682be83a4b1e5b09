import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getMapMarkersV1 } from '#functions/asset/get-map-markers.ts';
import { handler as getMapMarkersV3 } from '#functions/v3/map/get-map-markers.ts';
import { db, tableName } from '#shared/db/client.ts';
import { assetItem } from '#shared/db/items/asset.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { assetRecord } from '../support/records.ts';

/**
 * A large library's map (docs/places.md, "The map's markers"; issue 55): every marker of the
 * caller's is one answer, about 150 bytes each, so 40,000 markers pass Lambda's 6 MB. A large
 * answer goes out gzip-compressed to a client that accepts it (as the web and the apps do).
 */
let token: string;
const markers = 600;
beforeAll(async () => {
  const { admin } = await setupAccounts();
  const user = await freshUser(admin.accessToken, 'Mapper');
  token = user.accessToken;
  const items = Array.from({ length: markers }, (_, i) =>
    assetItem(
      assetRecord(user.id, {
        at: new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString(),
        exif: { latitude: 48 + i / 1000, longitude: 2 + i / 1000, city: 'Paris', state: 'Île-de-France', country: 'France' },
      }),
    ),
  );
  for (let i = 0; i < items.length; i += 25)
    await db.send(
      new BatchWriteCommand({ RequestItems: { [tableName]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }),
    );
});

describe('the map markers of a large library', () => {
  for (const [generation, handler, path] of [
    ['v3', getMapMarkersV3, '/api/map/markers'],
    ['v1.100', getMapMarkersV1, '/api/asset/map-marker'],
  ] as const) {
    it(`${generation}: answers every marker gzip-compressed when the client accepts gzip, plainly when it does not`, async () => {
      const zipped = await invoke(handler, { path, headers: { ...bearer(token), 'accept-encoding': 'gzip, deflate, br' } });
      expect(zipped.status).toBe(200);
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.body).toHaveLength(markers);
      const plain = await invoke(handler, { path, headers: { ...bearer(token), 'accept-encoding': 'identity' } });
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toEqual(zipped.body);
    });
  }
});
