import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as searchAssetsHandler } from '#functions/search/search-assets.ts';
import * as albumRepo from '#shared/db/album.repository.ts';
import * as assetRepo from '#shared/db/asset.repository.ts';
import { db, tableName } from '#shared/db/client.ts';
import { personItem } from '#shared/db/items/person.ts';
import { noQuota } from '#shared/domain/quota.ts';
import type { AssetRecord } from '#shared/model/asset.ts';
import type { PersonRecord } from '#shared/model/person.ts';
import { bearer, createUser, fixtures, login, signUpAdmin } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { assetRecord } from '../support/records.ts';

// Property: for random libraries and random filter sets, GET /assets returns exactly what a
// straightforward in-memory filter of the same library returns, in the same order. The oracle
// below is written from Immich v1.100's searchAssetBuilder (docs/immich-compatibility.md), independently of shared/domain/search.ts.

const dates = [
  '2020-01-01T00:00:00.000Z',
  '2021-06-15T12:00:00.000Z',
  '2021-06-15T12:00:00.000Z',
  '2022-03-03T03:03:03.000Z',
  '2023-12-31T23:59:59.000Z',
];
const makes = ['Canon', 'canon', 'Nikon', null];
const cities = ['Oslo', 'Paris', 'Île', null];
const names = ['IMG_0001.jpg', 'île de ré.JPG', 'Holiday_pic.png', 'clip.mp4', '100%.jpg'];

const assetArb = fc.record({
  fileCreatedAt: fc.constantFrom(...dates),
  createdAt: fc.constantFrom(...dates),
  make: fc.constantFrom(...makes),
  model: fc.constantFrom('R5', 'Z6', null),
  city: fc.constantFrom(...cities),
  country: fc.constantFrom('Norway', 'France', null),
  state: fc.constantFrom('Viken', null),
  lensModel: fc.constantFrom('RF 50mm', 'Z 24-70', null),
  deviceId: fc.constantFrom('CLI', 'phone'),
  library: fc.constantFrom(0, 1),
  updatedAt: fc.constantFrom(...dates),
  type: fc.constantFrom('IMAGE' as const, 'VIDEO' as const),
  originalFileName: fc.constantFrom(...names),
  isFavorite: fc.boolean(),
  isArchived: fc.boolean(),
  isVisible: fc.constantFrom(true, true, true, false),
  trashed: fc.constantFrom(null, null, null, '2024-02-02T00:00:00.000Z', '2024-05-05T00:00:00.000Z'),
  people: fc.subarray([0, 1, 2]),
  inAlbum: fc.boolean(),
});
type AssetSpec = typeof assetArb extends fc.Arbitrary<infer T> ? T : never;

const libraries = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];

const filterArb = (ids: string[], checksums: string[], personIds: string[], paths: string[]) => {
  const generators = {
    state: fc.constantFrom('Viken'),
    lensModel: fc.constantFrom('RF 50mm', 'Z 24-70'),
    deviceId: fc.constantFrom('CLI', 'phone'),
    libraryId: fc.constantFrom(...libraries),
    originalPath: fc.constantFrom(...paths),
    updatedAfter: fc.constantFrom(...dates),
    updatedBefore: fc.constantFrom(...dates),
    createdBefore: fc.constantFrom(...dates),
    trashedBefore: fc.constantFrom('2024-03-01T00:00:00.000Z', '2024-06-01T00:00:00.000Z'),
    isOffline: fc.constantFrom('true', 'false'),
    isReadOnly: fc.constantFrom('true', 'false'),
    isExternal: fc.constantFrom('true', 'false'),
    isMotion: fc.constantFrom('true', 'false'),
    isEncoded: fc.constantFrom('true', 'false'),
    withExif: fc.constantFrom('true', 'false'),
    withPeople: fc.constantFrom('true', 'false'),
    make: fc.constantFrom('Canon', 'canon', 'Nikon'),
    model: fc.constantFrom('R5', 'Z6'),
    city: fc.constantFrom('Oslo', 'Paris', 'Île'),
    country: fc.constantFrom('Norway', 'France'),
    type: fc.constantFrom('IMAGE', 'VIDEO'),
    isFavorite: fc.constantFrom('true', 'false'),
    isArchived: fc.constantFrom('true', 'false'),
    withArchived: fc.constantFrom('true', 'false'),
    withDeleted: fc.constantFrom('true', 'false'),
    isVisible: fc.constantFrom('true', 'false'),
    isNotInAlbum: fc.constantFrom('true', 'false'),
    takenAfter: fc.constantFrom(...dates),
    takenBefore: fc.constantFrom(...dates),
    createdAfter: fc.constantFrom(...dates),
    trashedAfter: fc.constantFrom('2024-01-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z'),
    originalFileName: fc.constantFrom('img', 'ILE', 'pic', '%', '_', '.jpg', 'ré'),
    id: fc.constantFrom(...ids),
    checksum: fc.constantFrom(...checksums),
    personIds: fc.subarray(personIds, { minLength: 1, maxLength: 2 }),
    order: fc.constantFrom('asc', 'desc'),
    page: fc.integer({ min: 1, max: 3 }).map(String),
    size: fc.integer({ min: 1, max: 6 }).map(String),
  };
  // A few filters at a time, so that every filter also drives a request on its own.
  return fc
    .subarray(Object.keys(generators) as (keyof typeof generators)[], { maxLength: 4 })
    .chain((keys) => fc.record(Object.fromEntries(keys.map((key) => [key, generators[key]])) as Partial<typeof generators>));
};

/** Immich v1.100's semantics, plainly. */
const oracle = (library: AssetRecord[], owner: string, f: Record<string, unknown>): string[] => {
  const bool = (key: string) => (f[key] === undefined ? undefined : f[key] === 'true');
  const trashedBound = f.trashedAfter !== undefined || f.trashedBefore !== undefined;
  const withDeleted = bool('withDeleted') ?? trashedBound;
  const fold = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase();
  const like = (value: string, pattern: string) =>
    new RegExp(
      fold(pattern)
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        .replaceAll('%', '.*')
        .replaceAll('_', '.'),
    ).test(fold(value));
  const selected = library.filter((a) => {
    if (a.ownerId !== owner) return false;
    if (f.id !== undefined && a.id !== f.id) return false;
    if (f.checksum !== undefined && a.checksum !== Buffer.from(String(f.checksum), 'base64').toString('hex')) return false;
    for (const key of ['make', 'model', 'city', 'country', 'state', 'lensModel'] as const)
      if (f[key] !== undefined && a.exif[key] !== f[key]) return false;
    for (const key of ['deviceId', 'libraryId', 'originalPath'] as const) if (f[key] !== undefined && a[key] !== f[key]) return false;
    // Nothing here is offline, read-only, external, a live photo or transcoded.
    for (const key of ['isOffline', 'isReadOnly', 'isExternal'] as const) if (bool(key) === true) return false;
    if (bool('isMotion') === true || bool('isEncoded') === true) return false;
    if (f.updatedAfter !== undefined && a.updatedAt < String(f.updatedAfter)) return false;
    if (f.updatedBefore !== undefined && a.updatedAt > String(f.updatedBefore)) return false;
    if (f.createdBefore !== undefined && a.createdAt > String(f.createdBefore)) return false;
    if (f.type !== undefined && a.type !== f.type) return false;
    if (bool('isFavorite') !== undefined && a.isFavorite !== bool('isFavorite')) return false;
    const isVisible = a.visibility !== 'hidden';
    const isArchived = a.visibility === 'archive';
    if (bool('isVisible') !== undefined && isVisible !== bool('isVisible')) return false;
    if (bool('isArchived') !== undefined) {
      if (isArchived !== bool('isArchived')) return false;
    } else if (!bool('withArchived') && isArchived) return false;
    if (bool('isNotInAlbum') === true && (a.albumCount > 0 || !isVisible)) return false;
    if (f.takenAfter !== undefined && a.fileCreatedAt < String(f.takenAfter)) return false;
    if (f.takenBefore !== undefined && a.fileCreatedAt > String(f.takenBefore)) return false;
    if (f.createdAfter !== undefined && a.createdAt < String(f.createdAfter)) return false;
    if (
      trashedBound &&
      (a.deletedAt === null ||
        (f.trashedAfter !== undefined && a.deletedAt < String(f.trashedAfter)) ||
        (f.trashedBefore !== undefined && a.deletedAt > String(f.trashedBefore)))
    )
      return false;
    if (!withDeleted && a.deletedAt !== null) return false;
    if (f.originalFileName !== undefined && !like(a.originalFileName, String(f.originalFileName))) return false;
    if (f.personIds !== undefined && !(f.personIds as string[]).every((id) => a.personIds.includes(id))) return false;
    return true;
  });
  const asc = f.order === 'asc';
  selected.sort((x, y) => {
    const c = x.fileCreatedAt === y.fileCreatedAt ? x.id.localeCompare(y.id) : x.fileCreatedAt.localeCompare(y.fileCreatedAt);
    return asc ? c : -c;
  });
  const size = Number(f.size ?? 250);
  const page = Number(f.page ?? 1);
  return selected.slice((page - 1) * size, page * size).map((a) => a.id);
};

let adminToken = '';
beforeAll(async () => {
  await signUpAdmin();
  adminToken = (await login(fixtures.admin)).accessToken;
});

/** A user with a library written through the repositories (as uploads, albums and trash write it). */
const buildLibrary = async (specs: AssetSpec[]) => {
  const email = `p${randomUUID().slice(0, 8)}@immich.cloud`;
  const user = await createUser(adminToken, { email, password: 'password', name: 'P' });
  const token = (await login({ email, password: 'password' })).accessToken;
  const now = '2024-01-01T00:00:00.000Z';
  const people: PersonRecord[] = [0, 1, 2].map((i) => ({
    id: randomUUID(),
    ownerId: user.id,
    name: `Person ${i}`,
    birthDate: null,
    isHidden: false,
    thumbnailPath: '',
    faceAssetId: null,
    faceCount: 1,
    timelineFaceCount: null,
    isFavorite: false,
    color: null,
    createdAt: now,
    updatedAt: now,
  }));
  for (const person of people) await db.send(new PutCommand({ TableName: tableName, Item: personItem(person) }));
  const library: AssetRecord[] = [];
  for (const spec of specs) {
    const id = randomUUID();
    let asset: AssetRecord = assetRecord(user.id, {
      id,
      libraryId: libraries[spec.library] ?? '',
      deviceAssetId: `d-${id}`,
      deviceId: spec.deviceId,
      type: spec.type,
      originalFileName: spec.originalFileName,
      at: spec.fileCreatedAt,
      createdAt: spec.createdAt,
      updatedAt: spec.updatedAt,
      isFavorite: spec.isFavorite,
      visibility: spec.isVisible ? 'timeline' : 'hidden',
      exif: {
        make: spec.make,
        model: spec.model,
        exifImageWidth: 1,
        exifImageHeight: 1,
        fileSizeInByte: 1,
        dateTimeOriginal: spec.fileCreatedAt,
        lensModel: spec.lensModel,
        city: spec.city,
        state: spec.state,
        country: spec.country,
        description: '',
      },
    });
    const faces = spec.people.map((i, index) => ({
      id: randomUUID(),
      assetId: id,
      personId: people[i]!.id,
      ownerId: user.id,
      imageWidth: 10,
      imageHeight: 10,
      boundingBoxX1: 0,
      boundingBoxY1: 0,
      boundingBoxX2: 1,
      boundingBoxY2: 1,
      index,
      sourceType: 'exif' as const,
    }));
    await assetRepo.recordUpload({
      asset,
      faces,
      newPeople: [],
      existingPeople: new Set(faces.map((face) => face.personId)),
      quota: noQuota,
    });
    asset = { ...asset, personIds: [...new Set(faces.map((face) => face.personId))], faceIds: faces.map((face) => face.id) };
    if (spec.isArchived || spec.trashed) {
      const written = await assetRepo.update(asset, faces, {
        ...(spec.isArchived && spec.isVisible ? { visibility: 'archive' } : {}),
        deletedAt: spec.trashed,
      });
      if (!written.ok) throw new Error(`asset ${asset.id} changed while it was set up`);
      asset = written.value;
    }
    library.push(asset);
  }
  const albumMembers = library.filter((_, index) => specs[index]?.inAlbum);
  if (albumMembers.length > 0) {
    await albumRepo.create(
      {
        id: randomUUID(),
        ownerId: user.id,
        albumName: 'a',
        description: '',
        albumThumbnailAssetId: null,
        createdAt: now,
        updatedAt: now,
        isActivityEnabled: true,
        order: 'desc',
        sharedLinkCount: 0,
        sharedUserIds: [],
        userRoles: {},
      },
      albumMembers,
    );
    for (const asset of albumMembers) asset.albumCount = 1;
  }
  return { user, token, library, people };
};

describe('GET /assets agrees with the in-memory oracle', () => {
  it('for random libraries and random filter sets (fast-check)', async () => {
    // Built once, on the first run, and kept for every later one.
    // biome-ignore lint/correctness/noUnusedVariables: read by its own `??=`, which builds it once.
    let other: Awaited<ReturnType<typeof buildLibrary>> | undefined;
    await fc.assert(
      fc.asyncProperty(fc.array(assetArb, { minLength: 0, maxLength: 14 }), fc.gen(), async (specs, g) => {
        const { user, token, library, people } = await buildLibrary(specs);
        // Another user's library with the same values must never show up.
        other ??= await buildLibrary(specs.slice(0, 5));
        const ids = library.length ? library.map((a) => a.id) : [randomUUID()];
        const checksums = library.length
          ? library.map((a) => Buffer.from(a.checksum, 'hex').toString('base64'))
          : [Buffer.alloc(20).toString('base64')];
        // Drawn from the property's own generator: seeded, and shrunk with the library when a case fails.
        const paths = library.length ? library.map((a) => a.originalPath) : ['upload/x/00/00/00000000-0000-4000-a000-000000000000.jpg'];
        const filters = Array.from({ length: 25 }, () =>
          g(() =>
            filterArb(
              ids,
              checksums,
              people.map((p) => p.id),
              paths,
            ),
          ),
        );
        for (const f of filters) {
          const query = Object.fromEntries(Object.entries(f).filter(([, value]) => value !== undefined)) as Record<
            string,
            string | string[]
          >;
          const reply = await invoke(searchAssetsHandler, { path: '/api/assets', query, headers: bearer(token) });
          expect(reply.status, JSON.stringify({ query, body: reply.body })).toBe(200);
          expect(
            reply.body.map((a: { id: string }) => a.id),
            JSON.stringify(query),
          ).toEqual(oracle(library, user.id, query));
          for (const item of reply.body as { id: string; exifInfo?: { city: string | null }; people: { id: string }[] }[]) {
            const asset = library.find((a) => a.id === item.id);
            expect(item.exifInfo?.city, 'withExif').toEqual(query.withExif === 'true' ? asset?.exif.city : undefined);
            expect(item.people.map((p) => p.id).sort(), 'withPeople').toEqual(
              query.withPeople === 'true' ? [...(asset?.personIds ?? [])].sort() : [],
            );
          }
        }
      }),
      { numRuns: 12, seed: Number(process.env.PROPERTY_SEED ?? 20261122) },
    );
    // Twelve libraries and 300 searches on DynamoDB Local: slower than one request when the suite runs in parallel.
  });
});
