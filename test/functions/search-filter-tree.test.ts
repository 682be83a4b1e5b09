import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as searchMetadata } from '#functions/search/search-metadata.ts';
import { handler as searchSmart } from '#functions/search/search-smart.ts';
import { handler as searchRandom } from '#functions/v3/search/search-random.ts';
import { handler as tagAssets } from '#functions/v3/tag/tag-assets.ts';
import { handler as upsertTags } from '#functions/v3/tag/upsert-tags.ts';
import { recordOcr } from '#shared/services/ocr.service.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, assetInfo, createAlbum, personNamed, trash, updateAsset } from '../support/library.ts';
import { changeConfig, mediaJobsInProcess, objectCreated } from '../support/media.ts';
import { type MlService, startMlService } from '../support/ml-service.ts';
import { makeJpeg, type PhotoSpec } from '../support/photos.ts';
import { cliFields, upload } from '../support/uploads.ts';

/**
 * 3.2's search filter tree (`filter`: docs/search.md, "The filter tree") through the real
 * handlers against DynamoDB Local: POST /search/metadata, /search/random and /search/smart with
 * and/or trees over albums, people, tags, dates, places, cameras, favourites, types and OCR text;
 * the access checks on what a tree names; malformed trees; smart search ranking then filtering.
 */
let accounts: Awaited<ReturnType<typeof setupAccounts>>;
let ml: MlService;
const media = mediaJobsInProcess();
type User = Awaited<ReturnType<typeof freshUser>>;
let owner: User;
let stranger: User;
const ids: Record<string, string> = {};
const named: Record<string, string> = {};

const d = (iso: string) => new Date(iso);
const face = (name: string, x: number) => ({ name, x, y: 0.1, w: 0.2, h: 0.2 });

const metadata = (token: string, body: Record<string, unknown>) =>
  invoke(searchMetadata, {
    method: 'POST',
    path: '/api/search/metadata',
    headers: bearer(token),
    body: { visibility: 'timeline', ...body },
  });
/** The names of the assets found, in the answer's order. */
const found = async (filter: Record<string, unknown>, body: Record<string, unknown> = {}): Promise<string[]> => {
  const reply = await metadata(owner.accessToken, { ...body, filter });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.assets.items.map((item: { id: string }) => Object.entries(ids).find(([, id]) => id === item.id)?.[0] ?? item.id);
};

const tag = async (token: string, value: string, assetIds: string[]): Promise<string> => {
  const [made] = (await invoke(upsertTags, { method: 'PUT', path: '/api/tags', headers: bearer(token), body: { tags: [value] } })).body;
  const reply = await invoke(tagAssets, {
    method: 'PUT',
    path: `/api/tags/${made.id}/assets`,
    headers: bearer(token),
    pathParameters: { id: made.id },
    body: { ids: assetIds },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return made.id;
};

const ocrLine = (text: string) => ({ text, box: [0.1, 0.1, 0.5, 0.1, 0.5, 0.2, 0.1, 0.2] as const, boxScore: 0.9, textScore: 0.9 });

beforeAll(async () => {
  accounts = await setupAccounts();
  const admin = accounts.admin.accessToken;
  [owner, stranger] = [await freshUser(admin, `Tree${Date.now()}`), await freshUser(admin, `TreeStranger${Date.now()}`)];
  const t = owner.accessToken;
  ids.oslo = await addPhoto(
    t,
    { make: 'Canon', city: 'Oslo', country: 'Norway', mwgFaces: [face('Ann', 0.1)] },
    d('2020-01-01T00:00:00.000Z'),
  );
  ids.paris = await addPhoto(
    t,
    { make: 'NIKON', city: 'Paris', country: 'France', mwgFaces: [face('Ann', 0.1), face('Bo', 0.5)] },
    d('2021-01-01T00:00:00.000Z'),
  );
  ids.lyon = await addPhoto(t, { make: 'Canon', city: 'Lyon', country: 'France' }, d('2022-01-01T00:00:00.000Z'));
  ids.sign = await addPhoto(t, { description: 'A shop front' }, d('2023-01-01T00:00:00.000Z'));
  const clip = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(32, 9)]);
  const video = await upload(t, {
    data: clip,
    fileName: 'walk.mp4',
    fields: cliFields('walk.mp4', clip.length, d('2019-01-01T00:00:00.000Z')),
  });
  expect(video.status, JSON.stringify(video.body)).toBe(201);
  ids.video = video.body.id;
  ids.trashed = await addPhoto(t, { make: 'Canon', city: 'Oslo' }, d('2024-01-01T00:00:00.000Z'));
  ids.archived = await addPhoto(t, { make: 'Canon', city: 'Bergen' }, d('2024-02-01T00:00:00.000Z'));
  await updateAsset(t, ids.archived as string, { isArchived: true });
  await trash(t, [ids.trashed as string]);
  await updateAsset(t, ids.oslo as string, { isFavorite: true });
  await updateAsset(t, ids.sign as string, { isFavorite: true });
  named.holiday = (await createAlbum(t, { albumName: 'Holiday', assetIds: [ids.oslo, ids.lyon] })).id;
  named.work = (await createAlbum(t, { albumName: 'Work', assetIds: [ids.paris, ids.lyon] })).id;
  named.ann = (await personNamed(t, 'Ann')).id;
  named.bo = (await personNamed(t, 'Bo')).id;
  // A tag and one below it: the tag's condition holds through either (Immich's tag closure).
  named.trips = await tag(t, 'Trips', [ids.sign as string]);
  named.tripsNorway = await tag(t, 'Trips/Norway', [ids.oslo as string]);
  await recordOcr({ id: ids.sign as string, ownerId: owner.id }, [ocrLine('Grand Opening'), ocrLine('Rue de la Paix')]);
  await recordOcr({ id: ids.lyon as string, ownerId: owner.id }, [ocrLine('Grand Hotel')]);
  // The stranger's own album, person and tag, named in the owner's trees.
  const theirs = await addPhoto(stranger.accessToken, { make: 'Canon', mwgFaces: [face('Cy', 0.3)] });
  named.theirAlbum = (await createAlbum(stranger.accessToken, { albumName: 'Theirs', assetIds: [theirs] })).id;
  named.theirPerson = (await personNamed(stranger.accessToken, 'Cy')).id;
  named.theirTag = await tag(stranger.accessToken, 'Secret', [theirs]);
});

describe('POST /search/metadata with a filter tree', () => {
  it('and: every condition of the top level, with the flat filters', async () => {
    expect(await found({ make: { eq: 'Canon' }, country: { eq: 'France' } })).toEqual(['lyon']);
    expect(await found({ make: { in: ['Canon', 'NIKON'] }, takenAt: { gte: '2020-06-01T00:00:00.000Z' } })).toEqual(['lyon', 'paris']);
    expect(await found({ takenAt: { gt: '2020-01-01T00:00:00.000Z', lt: '2022-01-01T00:00:00.000Z' } })).toEqual(['paris']);
    expect(await found({ isFavorite: { eq: true } })).toEqual(['sign', 'oslo']);
    expect(await found({ type: { eq: 'VIDEO' } })).toEqual(['video']);
    expect(await found({ type: { ne: 'IMAGE' }, isFavorite: { eq: false } })).toEqual(['video']);
    // The flat filters still apply beside the tree.
    expect(await found({ country: { eq: 'France' } }, { make: 'NIKON' })).toEqual(['paris']);
  });

  it('or: one of the branches, within the top level’s conditions', async () => {
    expect(await found({ or: [{ city: { eq: 'Oslo' } }, { type: { eq: 'VIDEO' } }] })).toEqual(['oslo', 'video']);
    expect(await found({ make: { eq: 'Canon' }, or: [{ city: { eq: 'Oslo' } }, { country: { eq: 'France' } }] })).toEqual(['lyon', 'oslo']);
    // A branch is itself an and.
    expect(
      await found({
        or: [
          { city: { eq: 'Paris' }, make: { eq: 'Canon' } },
          { isFavorite: { eq: true }, ocr: { matches: 'opening' } },
        ],
      }),
    ).toEqual(['sign']);
  });

  it('not: ne, notIn, none, notLike and eq false negate, and an empty field is neither equal nor unequal', async () => {
    expect(await found({ make: { ne: 'Canon' } })).toEqual(['paris']);
    expect(await found({ city: { notIn: ['Oslo', 'Paris'] } })).toEqual(['lyon']);
    expect(await found({ city: { eq: null }, type: { eq: 'IMAGE' } })).toEqual(['sign']);
    expect(await found({ city: { ne: null }, country: { ne: 'France' } })).toEqual(['oslo']);
    expect(await found({ description: { like: 'shop' } })).toEqual(['sign']);
    // An asset without a description has an empty one (not null, as Immich's column).
    expect(await found({ description: { notLike: 'shop' } })).toEqual(['lyon', 'paris', 'oslo', 'video']);
    expect(await found({ albumIds: { none: [named.holiday] }, type: { eq: 'IMAGE' } })).toEqual(['sign', 'paris']);
  });

  it('albums, people and tags: any, all, none, and whether there are any', async () => {
    expect(await found({ albumIds: { any: [named.holiday, named.work] } })).toEqual(['lyon', 'paris', 'oslo']);
    expect(await found({ albumIds: { all: [named.holiday, named.work] } })).toEqual(['lyon']);
    expect(await found({ albumIds: { any: [named.work], none: [named.holiday] } })).toEqual(['paris']);
    expect(await found({ hasAlbums: { eq: false } })).toEqual(['sign', 'video']);
    expect(await found({ personIds: { all: [named.ann, named.bo] } })).toEqual(['paris']);
    expect(await found({ personIds: { any: [named.ann] } })).toEqual(['paris', 'oslo']);
    expect(await found({ personIds: { none: [named.bo] }, hasPeople: { eq: true } })).toEqual(['oslo']);
    expect(await found({ tagIds: { any: [named.trips] } })).toEqual(['sign', 'oslo']);
    expect(await found({ tagIds: { all: [named.tripsNorway] } })).toEqual(['oslo']);
    expect(await found({ hasTags: { eq: true } })).toEqual(['sign', 'oslo']);
    expect(await found({ tagIds: { none: [named.trips] }, make: { eq: 'Canon' } })).toEqual(['lyon']);
    // Mixed in an or: in the Holiday album, or with Bo, or tagged.
    expect(
      await found({ or: [{ albumIds: { any: [named.holiday] } }, { personIds: { any: [named.bo] } }, { tagIds: { any: [named.trips] } }] }),
    ).toEqual(['sign', 'lyon', 'paris', 'oslo']);
  });

  it('ocr: the assets whose text has every word, anywhere in the tree', async () => {
    expect(await found({ ocr: { matches: 'grand' } })).toEqual(['sign', 'lyon']);
    expect(await found({ ocr: { matches: 'grand paix' } })).toEqual(['sign']);
    expect(await found({ or: [{ ocr: { matches: 'hotel' } }, { city: { eq: 'Oslo' } }] })).toEqual(['lyon', 'oslo']);
    expect(await found({ ocr: { matches: 'grand' }, albumIds: { any: [named.holiday] } })).toEqual(['lyon']);
  });

  it('trash and visibility conditions read what they name', async () => {
    expect(await found({ trashedAt: { ne: null } })).toEqual(['trashed']);
    expect(await found({ city: { eq: 'Oslo' } })).toEqual(['oslo']);
    // Without a flat `visibility`, the tree's visibility conditions choose (the locked folder only unlocked).
    const treeOnly = async (filter: Record<string, unknown>) => {
      const reply = await invoke(searchMetadata, {
        method: 'POST',
        path: '/api/search/metadata',
        headers: bearer(owner.accessToken),
        body: { filter },
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return reply.body.assets.items.map((item: { id: string }) => Object.entries(ids).find(([, id]) => id === item.id)?.[0]);
    };
    expect(await treeOnly({ visibility: { eq: 'archive' } })).toEqual(['archived']);
    expect(await treeOnly({ visibility: { in: ['archive', 'timeline'] }, make: { eq: 'Canon' } })).toEqual(['archived', 'lyon', 'oslo']);
    expect(await treeOnly({ or: [{ visibility: { eq: 'archive' } }, { city: { eq: 'Paris' } }] })).toEqual(['archived', 'paris']);
    const locked = await invoke(searchMetadata, {
      method: 'POST',
      path: '/api/search/metadata',
      headers: bearer(owner.accessToken),
      body: { filter: { visibility: { eq: 'locked' } } },
    });
    expect(locked.status).toBe(401);
  });

  it('pages a tree’s matches', async () => {
    const tree = { or: [{ albumIds: { any: [named.holiday, named.work] } }, { isFavorite: { eq: true } }] };
    expect(await found(tree)).toEqual(['sign', 'lyon', 'paris', 'oslo']);
    expect(await found(tree, { size: 2, page: 2 })).toEqual(['paris', 'oslo']);
  });

  it('another user’s album, person or tag in a tree is a 400, as Immich’s access check', async () => {
    for (const [filter, permission] of [
      [{ albumIds: { any: [named.theirAlbum] } }, 'album.read'],
      [{ or: [{ city: { eq: 'Oslo' } }, { albumIds: { none: [named.theirAlbum] } }] }, 'album.read'],
      [{ personIds: { all: [named.theirPerson] } }, 'person.read'],
      [{ or: [{ tagIds: { any: [named.theirTag] } }] }, 'tag.read'],
    ] as const) {
      const reply = await metadata(owner.accessToken, { filter });
      expect(reply.status, JSON.stringify(filter)).toBe(400);
      expect(JSON.stringify(reply.body)).toContain(`Not found or no ${permission} access`);
    }
  });

  it('a malformed tree is a 400 naming what is wrong', async () => {
    const refused = async (filter: unknown, message: string) => {
      const reply = await metadata(owner.accessToken, { filter });
      expect(reply.status, JSON.stringify(filter)).toBe(400);
      expect(JSON.stringify(reply.body), JSON.stringify(filter)).toContain(message);
    };
    await refused({ not: { city: { eq: 'Oslo' } } }, 'not is not a known condition');
    await refused({ city: { equals: 'Oslo' } }, 'equals is not a known condition');
    await refused({ or: [] }, 'or must not be empty');
    await refused({ or: [{ or: [{ city: { eq: 'Oslo' } }] }] }, 'or is not a known condition');
    await refused({ or: Array.from({ length: 21 }, () => ({ isFavorite: { eq: true } })) }, 'or must contain at most 20 items');
    await refused({ isFavorite: { eq: 'yes' } }, 'eq must be a boolean');
    await refused({ albumIds: {} }, 'albumIds must have at least one of: any, all, none');
    await refused({ albumIds: { any: ['x'] } }, 'must be a UUID');
    await refused({ takenAt: { gte: 'yesterday' } }, 'gte must be an ISO date-time');
    await refused({ ocr: { matches: '' } }, 'matches must not be empty');
    await refused({ type: { eq: 'PHOTO' } }, 'eq must be one of');
    await refused('city', 'filter must be an object');
    const many = Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-a000-${String(i).padStart(12, '0')}`);
    await refused(
      { or: [{ albumIds: { any: many.slice(0, 60) } }, { tagIds: { any: many.slice(60) } }] },
      'at most 100 albums, people and tags',
    );
  });

  it('POST /search/random draws from the tree’s matches', async () => {
    const reply = await invoke(searchRandom, {
      method: 'POST',
      path: '/api/search/random',
      headers: bearer(owner.accessToken),
      body: { filter: { or: [{ city: { eq: 'Oslo' } }, { personIds: { all: [named.bo] } }] } },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.map((asset: { id: string }) => asset.id).sort()).toEqual([ids.oslo, ids.paris].sort());
  });
});

describe('POST /search/smart with a filter tree', () => {
  let user: User;
  const colours: Record<string, string> = {};
  let uploads = 0;
  const uploadPhoto = async (spec: PhotoSpec): Promise<string> => {
    const data = makeJpeg({ width: 96, height: 64, ...spec });
    const name = `tree-${++uploads}.jpg`;
    const reply = await upload(user.accessToken, { data, fileName: name, fields: cliFields(name, data.length) });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const id = reply.body.id as string;
    const { body } = await assetInfo(user.accessToken, id);
    expect((await objectCreated(body.originalPath)).outcomes).toEqual({ [body.originalPath]: 'made' });
    return id;
  };
  const smart = async (query: string, filter: Record<string, unknown>): Promise<string[]> => {
    const reply = await invoke(searchSmart, {
      method: 'POST',
      path: '/api/search/smart',
      headers: bearer(user.accessToken),
      body: { language: 'en', query, filter },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.assets.items.map((item: { id: string }) => Object.entries(colours).find(([, id]) => id === item.id)?.[0] ?? item.id);
  };

  beforeAll(async () => {
    media.start();
    ml = await startMlService();
    await changeConfig(accounts.admin.accessToken, (config) => ({
      ...config,
      machineLearning: { ...config.machineLearning, enabled: true, urls: [ml.url], clip: { enabled: true, modelName: 'ViT-B-32__openai' } },
    }));
    user = await freshUser(accounts.admin.accessToken, `TreeSmart${Date.now()}`);
    colours.red = await uploadPhoto({ color: [250, 10, 10], make: 'Canon' });
    colours.green = await uploadPhoto({ color: [10, 250, 10], make: 'Nikon' });
    colours.blue = await uploadPhoto({ color: [10, 10, 250], make: 'Canon' });
    colours.yellow = await uploadPhoto({ color: [250, 250, 10], make: 'Nikon' });
    named.blueAlbum = (await createAlbum(user.accessToken, { albumName: 'Blue', assetIds: [colours.blue] })).id;
  });
  afterAll(async () => {
    media.stop();
    await ml?.close();
  });

  it('ranks by the query, then keeps the tree’s matches in that order', async () => {
    expect(await smart('red', { make: { eq: 'Canon' } })).toEqual(['red', 'blue']);
    expect(await smart('blue', { make: { eq: 'Canon' } })).toEqual(['blue', 'red']);
    // An or of branches: the unfiltered ranking's order, less what matches no branch (red).
    const ranking = await smart('green', {});
    expect(ranking).toHaveLength(4);
    expect(await smart('green', { or: [{ make: { eq: 'Nikon' }, city: { eq: null } }, { albumIds: { any: [named.blueAlbum] } }] })).toEqual(
      ranking.filter((name) => name !== 'red'),
    );
    expect(ranking[0]).toBe('green');
    expect((await smart('yellow', { make: { ne: 'Canon' }, albumIds: { none: [named.blueAlbum] } }))[0]).toBe('yellow');
    expect(await smart('blue', { albumIds: { any: [named.blueAlbum] } })).toEqual(['blue']);
  });

  it('refuses another user’s album in the tree (400)', async () => {
    const reply = await invoke(searchSmart, {
      method: 'POST',
      path: '/api/search/smart',
      headers: bearer(user.accessToken),
      body: { language: 'en', query: 'red', filter: { albumIds: { any: [named.holiday] } } },
    });
    expect(reply.status).toBe(400);
    expect(JSON.stringify(reply.body)).toContain('Not found or no album.read access');
  });
});
