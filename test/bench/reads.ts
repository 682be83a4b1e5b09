import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noQuota } from '#shared/domain/quota.ts';
import type { AssetRecord } from '#shared/model/asset.ts';
import { newPerson } from '#shared/model/person.ts';
import { assetRecord, cameraExif, faceRecord } from '../support/records.ts';
import { ownProcess, startLocalStack } from './local-stack.ts';
import { median, percentile, table } from './stats.ts';

/**
 * The read paths of people and shared links at size, through the local server on DynamoDB Local:
 * GET /person/:id/assets for a person on 1,000 assets, GET /shared-link/:id for a 500-asset album.
 * The library is written through the repositories (the same items an upload writes).
 */
const measure = async (): Promise<string> => {
  const work = mkdtempSync(join(tmpdir(), 'bench-reads-'));
  const stack = await startLocalStack({ ORIGINALS_DIR: join(work, 'originals') });
  const { baseUrl } = stack;
  const { recordUpload } = await import('#shared/db/asset.repository.ts');
  const { create: createAlbum } = await import('#shared/db/album.repository.ts');
  const { countRoundTrips } = await import('../support/round-trips.ts');
  const sdk = await import('@immich/sdk');
  try {
    const { admin, adminAuth: auth } = stack;
    const me = await sdk.getMyUserInfo(auth);
    const libraryId = randomUUID();
    const person = newPerson(admin.id, '2024-01-01T00:00:00.000Z', { name: 'Bench Person' });
    const assets: AssetRecord[] = [];
    for (let i = 0; i < 1000; i++) {
      const id = randomUUID();
      const when = new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString();
      const asset: AssetRecord = assetRecord(me.id, {
        id,
        libraryId,
        deviceAssetId: `bench-${i}`,
        deviceId: 'bench',
        originalPath: `upload/${me.id}/${id}.jpg`,
        originalFileName: `bench-${i}.jpg`,
        at: when,
        exif: {
          ...cameraExif(when),
          make: 'Bench',
          model: 'B1',
          latitude: 1,
          longitude: 2,
          city: 'Bench City',
        },
      });
      assets.push(asset);
    }
    // Eight uploads at a time, as eight clients would; the first creates the person.
    const write = async (asset: (typeof assets)[number], index: number) =>
      recordUpload({
        asset,
        faces: [faceRecord(asset.id, person.id, me.id)],
        newPeople: index === 0 ? [person] : [],
        existingPeople: index === 0 ? new Set<string>() : new Set([person.id]),
        quota: noQuota,
      });
    await write(assets[0]!, 0);
    for (let i = 1; i < assets.length; i += 8) await Promise.all(assets.slice(i, i + 8).map((asset, j) => write(asset, i + j)));
    const album = {
      id: randomUUID(),
      ownerId: me.id,
      albumName: 'Bench album',
      description: '',
      albumThumbnailAssetId: null,
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
      isActivityEnabled: true,
      order: 'desc' as const,
      sharedLinkCount: 0,
      sharedUserIds: [],
      userRoles: {},
    };
    await createAlbum(album, assets.slice(0, 500));
    const link = await sdk.createSharedLink({ sharedLinkCreateDto: { type: sdk.SharedLinkType.Album, albumId: album.id } }, auth);

    const cases = [
      { name: 'GET /person/:id/assets (1,000 assets)', call: () => sdk.getPersonAssets({ id: person.id }, auth), expect: 1000 },
      {
        name: 'GET /shared-link/:id (500-asset album)',
        call: async () => (await sdk.getSharedLinkById({ id: link.id }, auth)).assets,
        expect: 500,
      },
      {
        name: 'GET /shared-link/me (visitor, same link)',
        call: async () => (await sdk.getMySharedLink({ key: link.key }, { baseUrl })).assets,
        expect: 500,
      },
    ];
    const rows: (string | number)[][] = [];
    for (const c of cases) {
      const got = await c.call();
      if (got.length !== c.expect) throw new Error(`${c.name}: ${got.length} assets`);
      const calls = await countRoundTrips(c.call);
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const start = performance.now();
        await c.call();
        times.push(performance.now() - start);
      }
      const byCommand = Object.entries(
        calls.reduce<Record<string, number>>((all, name) => {
          all[name] = (all[name] ?? 0) + 1;
          return all;
        }, {}),
      )
        .map(([name, count]) => `${count} ${name.replace('Command', '')}`)
        .join(', ');
      rows.push([c.name, calls.length, byCommand, median(times).toFixed(1), percentile(times, 95).toFixed(1)]);
    }
    return [
      'Through the local server on DynamoDB Local, 20 requests each after one warm-up; round trips counted on the DynamoDB client (BatchGetItem reads 100 keys a call).',
      '',
      table(['request', 'DynamoDB calls', 'which', 'median ms', 'p95 ms'], rows),
    ].join('\n');
  } finally {
    await stack.stop();
    rmSync(work, { recursive: true, force: true });
  }
};

// Handlers read TABLE_NAME and the endpoint when first imported: this section runs in its own process.
if (import.meta.main) process.stdout.write(await measure());

export const readsSection = { name: 'reads', run: ownProcess(import.meta.url) };
