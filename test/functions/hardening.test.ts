import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createAlbumHandler } from '#functions/album/create-album.ts';
import { handler as checkBulkUploadHandler } from '#functions/asset/check-bulk-upload.ts';
import { handler as updateAssetHandler } from '#functions/asset/update-asset.ts';
import { handler as uploadHandler } from '#functions/asset/upload-file.ts';
import { handler as searchHandler } from '#functions/search/search.ts';
import { handler as searchAssetsHandler } from '#functions/search/search-assets.ts';
import { handler as getConfigHandler } from '#functions/system-config/get-config.ts';
import { handler as updateConfigHandler } from '#functions/system-config/update-config.ts';
import { handler as createUserHandler } from '#functions/user/create-user.ts';
import { handler as getMyUserInfoHandler } from '#functions/user/get-my-user-info.ts';
import * as albumRepo from '#shared/db/album.repository.ts';
import { CreateAlbumDto } from '#shared/dto/v1/album.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { bearer, fixtures, login, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { assetInfo } from '../support/library.ts';
import { makeJpeg, makeSidecar } from '../support/photos.ts';
import { countRoundTrips } from '../support/round-trips.ts';
import { useServer } from '../support/server.ts';
import { tableItems } from '../support/table-items.ts';
import { cliFields, upload } from '../support/uploads.ts';

// Regressions of what trying the API as an attacker or a careless client found: each case failed
// (a stall, a 500 or a wrong value) before its fix.

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

describe('uploads', () => {
  it('keep a UTF-8 file name as sent (busboy would read it as Latin-1)', async () => {
    const token = accounts.user1.accessToken;
    const reply = await upload(token, { fileName: 'Île-été.jpg', data: makeJpeg({ color: [1, 2, 3] }) });
    expect(reply.status).toBe(201);
    expect((await assetInfo(token, reply.body.id)).body.originalFileName).toBe('Île-été.jpg');
  });

  it('refuse two asset files in one request, storing nothing', async () => {
    const token = accounts.user1.accessToken;
    const before = (await tableItems('asset')).length;
    const form = new FormData();
    for (const [name, value] of Object.entries(cliFields('two.jpg', 10))) form.append(name, value);
    for (const color of [4, 5] as const)
      form.append('assetData', new File([new Uint8Array(makeJpeg({ color: [color, 1, 1] }))], `${color}.jpg`));
    const response = new Response(form);
    const reply = await invoke(uploadHandler, {
      method: 'POST',
      path: '/api/asset/upload',
      headers: { ...bearer(token), 'content-type': response.headers.get('content-type') ?? '' },
      body: Buffer.from(await response.arrayBuffer()),
    });
    expect(reply).toMatchObject({ status: 400, body: { message: 'Unexpected field - assetData', error: 'Bad Request', statusCode: 400 } });
    expect((await tableItems('asset')).length).toBe(before);
  });

  it('refuse a sidecar over 256 KB before parsing it, naming the limit, storing nothing', async () => {
    const token = accounts.user1.accessToken;
    const before = (await tableItems('asset')).length;
    const padding = `<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${'word '.repeat(60_000)}</rdf:li></rdf:Alt></dc:description>`;
    const sidecar = Buffer.from(makeSidecar({}).toString('utf8').replace('</rdf:Description>', `${padding}</rdf:Description>`));
    expect(sidecar.length).toBeGreaterThan(256 * 1024);
    const reply = await upload(token, { data: makeJpeg({ color: [7, 7, 70] }), sidecar });
    expect(reply).toMatchObject({ status: 400, body: { message: 'sidecarData is larger than the limit of 256 KB' } });
    expect((await tableItems('asset')).length).toBe(before);
  });
});

describe('values too long, too large or odd are 4xx, never 500', () => {
  const long = (n: number) => 'x'.repeat(n);

  it('refuse over-long free text with a message naming the field and its limit', async () => {
    const token = accounts.user1.accessToken;
    const album = await invoke(createAlbumHandler, {
      method: 'POST',
      path: '/api/album',
      headers: bearer(token),
      body: { albumName: long(5_000) },
    });
    expect(album).toMatchObject({ status: 400, body: { message: ['albumName must be shorter than or equal to 1000 characters'] } });
    const id = (await upload(token, { data: makeJpeg({ color: [9, 9, 9] }) })).body.id;
    const update = await invoke(updateAssetHandler, {
      method: 'PUT',
      path: `/api/asset/${id}`,
      headers: bearer(token),
      pathParameters: { id },
      body: { description: long(480_000) },
    });
    expect(update).toMatchObject({ status: 400, body: { message: ['description must be shorter than or equal to 10000 characters'] } });
    const user = await invoke(createUserHandler, {
      method: 'POST',
      path: '/api/user',
      headers: bearer(accounts.admin.accessToken),
      body: { email: 'long@immich.cloud', password: 'password', name: long(100_000) },
    });
    expect(user).toMatchObject({ status: 400, body: { message: ['name must be shorter than or equal to 1000 characters'] } });
  });

  it('refuse a search value or checksum too long for an index key (it was a DynamoDB ValidationException)', async () => {
    const token = accounts.user1.accessToken;
    const search = await invoke(searchAssetsHandler, { path: '/api/assets', headers: bearer(token), query: { make: long(3_000) } });
    expect(search).toMatchObject({ status: 400, body: { message: ['make must be shorter than or equal to 500 characters'] } });
    const checksum = await invoke(searchAssetsHandler, { path: '/api/assets', headers: bearer(token), query: { checksum: long(3_000) } });
    expect(checksum.status).toBe(400);
    const bulk = await invoke(checkBulkUploadHandler, {
      method: 'POST',
      path: '/api/asset/bulk-upload-check',
      headers: bearer(token),
      body: { assets: [{ id: 'a', checksum: long(3_000) }] },
    });
    expect(bulk).toMatchObject({ status: 400, body: { message: ['assets.0.checksum must be shorter than or equal to 64 characters'] } });
  });

  it('store a photo whose own metadata is too long, with the values cut (a refused file is retried forever by the CLI)', async () => {
    const token = accounts.user2.accessToken;
    const data = makeJpeg({ make: long(3_000), color: [3, 30, 3] });
    const reply = await upload(token, { data, sidecar: makeSidecar({ city: `Oslo${long(3_000)}` }) });
    expect(reply.status).toBe(201);
    const { exifInfo } = (await assetInfo(token, reply.body.id)).body;
    expect(exifInfo.make).toBe(long(500));
    expect(exifInfo.city).toHaveLength(500);
    expect(
      (await invoke(searchAssetsHandler, { path: '/api/assets', headers: bearer(token), query: { make: long(500) } })).body,
    ).toHaveLength(1);
  });

  it('answer dates JavaScript cannot read (ordinal and week dates) with Immich’s @IsDate message', async () => {
    for (const value of ['2020-366', '2020W01', '2020-W53-7']) {
      const reply = await invoke(searchAssetsHandler, {
        path: '/api/assets',
        headers: bearer(accounts.user1.accessToken),
        query: { createdBefore: value },
      });
      expect(reply, value).toMatchObject({ status: 400, body: { message: ['createdBefore must be a Date instance'] } });
    }
  });

  it('refuse numbers DynamoDB cannot hold exactly (above 2^53 - 1)', async () => {
    const user = await invoke(createUserHandler, {
      method: 'POST',
      path: '/api/user',
      headers: bearer(accounts.admin.accessToken),
      body: { email: 'quota@immich.cloud', password: 'password', name: 'Quota', quotaSizeInBytes: 1e20 },
    });
    expect(user).toMatchObject({ status: 400, body: { message: ['quotaSizeInBytes must not be greater than 9007199254740991'] } });
    const config = (await invoke(getConfigHandler, { path: '/api/system-config', headers: bearer(accounts.admin.accessToken) })).body;
    const huge = { ...config, job: { ...config.job, library: { concurrency: 1e308 } } };
    const reply = await invoke(updateConfigHandler, {
      method: 'PUT',
      path: '/api/system-config',
      headers: bearer(accounts.admin.accessToken),
      body: huge,
    });
    expect(reply).toMatchObject({ status: 400, body: { message: ['job.library.concurrency must not be greater than 9007199254740991'] } });
  });

  it('treat a malformed cookie as no credential (401), not a crash', async () => {
    for (const cookie of ['immich_access_token=%E0%A4%A', 'immich_access_token=%']) {
      const reply = await invoke(getMyUserInfoHandler, { path: '/api/user/me', headers: { cookie } });
      expect(reply, cookie).toMatchObject({ status: 401, body: { message: 'Authentication required' } });
    }
  });

  it('turn an item DynamoDB cannot hold into a 400, whatever path it came by (the last line behind the schemas)', async () => {
    const now = new Date().toISOString();
    const album = {
      id: crypto.randomUUID(),
      ownerId: accounts.user1.userId,
      albumName: long(500_000),
      description: '',
      albumThumbnailAssetId: null,
      createdAt: now,
      updatedAt: now,
      isActivityEnabled: true,
      order: 'desc' as const,
      sharedLinkCount: 0,
      sharedUserIds: [],
      userRoles: {},
    };
    await expect(albumRepo.create(album, [])).rejects.toMatchObject({ kind: 'invalid', messages: 'A value is too long to be stored' });
  });
});

describe('request bodies', () => {
  const server = useServer();
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

  it('a JSON route takes at most 1 MB: 413 naming the limit, before authentication and before parsing', async () => {
    const reply = await post('/api-key', JSON.stringify({ name: 'x'.repeat(10 * 1024 * 1024) }));
    expect(reply.status).toBe(413);
    expect(await reply.json()).toEqual({
      message: 'Request body is larger than the limit of 1 MB',
      error: 'Payload Too Large',
      statusCode: 413,
    });
    // Sign-in is a JSON route too: a 62 MB password is refused before it is read.
    expect((await post('/auth/login', `{"email":"a@b.c","password":"${'p'.repeat(2 * 1024 * 1024)}"}`)).status).toBe(413);
  });

  it('a bulk route takes what a client sends for a 100,000-asset library', async () => {
    const { accessToken } = await login(fixtures.user1);
    const assets = Array.from({ length: 20_000 }, (_, i) => ({ id: `/photos/${'dir/'.repeat(10)}IMG_${i}.jpg`, checksum: 'a'.repeat(40) }));
    const body = JSON.stringify({ assets });
    expect(body.length).toBeGreaterThan(2 * 1024 * 1024);
    const reply = await post('/asset/bulk-upload-check', body, bearer(accessToken));
    expect(reply.status).toBe(200);
    expect(((await reply.json()) as { results: unknown[] }).results).toHaveLength(20_000);
  });

  it('deployed, the function itself refuses an oversize body before authenticating (MAX_BODY_BYTES from its row)', async () => {
    const previous = process.env.MAX_BODY_BYTES;
    process.env.MAX_BODY_BYTES = String(64 * 1024);
    try {
      // The stack reads its limit when the handler is built, as a Lambda function does at cold start.
      const handler = httpHandler({ access: 'user', returns: returns<never>(), body: CreateAlbumDto }, () => {
        throw new Error('never reached');
      });
      const reply = await invoke(handler, { method: 'POST', path: '/api/album', body: { albumName: 'x'.repeat(70 * 1024) } });
      expect(reply).toMatchObject({ status: 413, body: { message: 'Request body is larger than the limit of 0.06 MB' } });
      expect((await invoke(handler, { method: 'POST', path: '/api/album', body: { albumName: 'x' } })).status).toBe(401);
    } finally {
      if (previous === undefined) delete process.env.MAX_BODY_BYTES;
      else process.env.MAX_BODY_BYTES = previous;
    }
  });
});

describe('search postings stay bounded', () => {
  const termsOf = async (assetId: string) =>
    (await tableItems('term')).filter((item) => item.assetId === assetId).map((item) => String(item.pk).split('#').at(-1));
  const describeAsset = (token: string, id: string, description: string) =>
    invoke(updateAssetHandler, {
      method: 'PUT',
      path: `/api/asset/${id}`,
      headers: bearer(token),
      pathParameters: { id },
      body: { description },
    });

  it('an asset has at most 100 words, whatever its description says; the same edit again writes nothing; words dropped are deleted', async () => {
    const token = accounts.user2.accessToken;
    const id = (await upload(token, { data: makeJpeg({ color: [40, 41, 42] }), fileName: 'harbour.jpg' })).body.id;
    const long = Array.from({ length: 1_800 }, (_, i) => `w${i}`).join(' ');
    expect((await describeAsset(token, id, long)).status).toBe(200);
    const terms = await termsOf(id);
    expect(terms.length).toBeLessThanOrEqual(100);
    expect(terms).toEqual(expect.arrayContaining(['harbour', 'jpg', 'w0']));

    const again = await countRoundTrips(() => describeAsset(token, id, long));
    expect(again.filter((call) => call === 'BatchWriteItemCommand')).toEqual([]);

    expect((await describeAsset(token, id, 'sunset over the fjord')).status).toBe(200);
    expect((await termsOf(id)).sort()).toEqual(['fjord', 'harbour', 'jpg', 'over', 'sunset', 'the']);
    const found = await invoke(searchHandler, { path: '/api/search', headers: bearer(token), query: { q: 'fjord sunset' } });
    expect(found.body.assets.items.map((asset: { id: string }) => asset.id)).toEqual([id]);
    expect((await invoke(searchHandler, { path: '/api/search', headers: bearer(token), query: { q: 'w0' } })).body.assets.items).toEqual(
      [],
    );
  });
});

describe('work per request is bounded', () => {
  it('a page deeper than 10,000 results is a 400 (each page would read the library from the start)', async () => {
    const reply = await invoke(searchAssetsHandler, {
      path: '/api/assets',
      headers: bearer(accounts.user1.accessToken),
      query: { page: 11, size: 1000 },
    });
    expect(reply).toMatchObject({ status: 400, body: { message: 'page × size must not be greater than 10000' } });
    expect(
      (
        await invoke(searchAssetsHandler, {
          path: '/api/assets',
          headers: bearer(accounts.user1.accessToken),
          query: { page: 10, size: 1000 },
        })
      ).status,
    ).toBe(200);
  });

  it('a bulk upload check of 5,000 checksums never has more than 8 BatchGetItem calls in flight', async () => {
    const { db } = await import('#shared/db/client.ts');
    let inFlight = 0;
    let most = 0;
    db.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName !== 'BatchGetItemCommand') return next(args);
        most = Math.max(most, ++inFlight);
        try {
          return await next(args);
        } finally {
          inFlight--;
        }
      },
      { step: 'initialize', name: 'in-flight' },
    );
    try {
      const assets = Array.from({ length: 5_000 }, (_, i) => ({ id: `f${i}`, checksum: i.toString(16).padStart(40, '0') }));
      const reply = await invoke(checkBulkUploadHandler, {
        method: 'POST',
        path: '/api/asset/bulk-upload-check',
        headers: bearer(accounts.user1.accessToken),
        body: { assets },
      });
      expect(reply.status).toBe(200);
      expect(reply.body.results).toHaveLength(5_000);
      expect(most).toBe(8);
    } finally {
      db.middlewareStack.remove('in-flight');
    }
  });
});

describe('text search work is bounded', () => {
  it('stops after 5,000 candidates, however many postings its word has (they all pointed nowhere here)', async () => {
    const { writePostings } = await import('#shared/db/term.repository.ts');
    const { maxTextCandidates } = await import('#shared/services/search.service.ts');
    const owner = accounts.user2.userId;
    const postings = Array.from({ length: 8_000 }, (_, i) => ({
      assetId: `00000000-0000-4000-a000-${String(i).padStart(12, '0')}`,
      fileCreatedAt: new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString(),
      term: 'everywhereword',
    }));
    await writePostings(owner, postings);
    const calls = await countRoundTrips(() =>
      invoke(searchHandler, { path: '/api/search', headers: bearer(accounts.user2.accessToken), query: { q: 'everywhereword' } }),
    );
    // Pages of 310 postings (size 250): the whole word would take 26 Queries; the cap stops it at 17.
    expect(calls.filter((call) => call === 'QueryCommand').length).toBe(Math.ceil(maxTextCandidates / 310));
  });
});
