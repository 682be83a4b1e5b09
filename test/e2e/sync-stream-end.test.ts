import * as v3 from '@immich/sdk-v3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deployment } from '#infra/local/deployed/assembly.ts';
import { tableNames } from '../support/app-store.ts';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { makeJpeg } from '../support/photos.ts';
import { target, useServer } from '../support/server.ts';
import { SyncClient, type SyncLine, type SyncTransport } from '../support/sync-client.ts';
import { httpTransport } from '../support/sync-http.ts';

type Opts = { baseUrl: string; headers: Record<string, string> };

/**
 * The sync stream's deadline through the server itself (docs/deployment.md, "The sync stream"):
 * from source (`npm start`) the streamed route's context counts down its route's timeout, here
 * shortened to nothing with LOCAL_STREAM_TIMEOUT_MS; deployed, the function URL's worker counts
 * down the template's 300 s, and the function's STREAM_END_MARGIN_MS is set past it. Either way
 * every stream ends early, cleanly, and the app's syncs converge on what one whole sync gives.
 */
const endEveryStream = (deployment: Deployment): void => {
  for (const url of deployment.functionUrls) {
    const fn = deployment.functions.get(url.functionId);
    if (fn) fn.environment.STREAM_END_MARGIN_MS = String(600_000);
  }
};

describe('the sync stream ends before its deadline, over HTTP', () => {
  const server = useServer({ adjust: endEveryStream });
  const saved = process.env.LOCAL_STREAM_TIMEOUT_MS;
  let admin: Opts;
  let adminId: string;

  beforeAll(async () => {
    if (target() === 'source') process.env.LOCAL_STREAM_TIMEOUT_MS = '0';
    const { baseUrl } = server;
    await v3.signUpAdmin({ signUpDto: { email: 'admin@immich.cloud', password: 'password', name: 'Admin' } }, { baseUrl });
    const login = await v3.login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl });
    adminId = login.userId;
    admin = { baseUrl, headers: { Authorization: `Bearer ${login.accessToken}` } };
    // How the stream ends is what this file is about: none of the uploads' machine learning.
    await turnOffMlTasks(admin, ['facialRecognition', 'ocr', 'duplicateDetection']);
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.LOCAL_STREAM_TIMEOUT_MS;
    else process.env.LOCAL_STREAM_TIMEOUT_MS = saved;
  });

  const upload = async (opts: Opts, color: [number, number, number], name: string) => {
    const { id } = await v3.uploadAsset(
      {
        assetMediaCreateDto: {
          assetData: new File([new Uint8Array(makeJpeg({ color, make: 'EndCam' }))], name),
          fileCreatedAt: '2024-06-01T10:00:00.000Z',
          fileModifiedAt: '2024-06-01T10:00:00.000Z',
        },
      },
      opts,
    );
    // Its previews are made in the background and change it (the thumbhash): let that land first.
    for (let attempt = 0; attempt < 100; attempt++) {
      if ((await v3.getAssetInfo({ id }, opts)).thumbhash) return id;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no previews for ${id}`);
  };

  it('the app’s syncs, each ended early, converge on one whole sync’s tables', async () => {
    const { baseUrl } = server;
    await v3.createUserAdmin({ userAdminCreateDto: { email: 'partner@immich.cloud', password: 'password', name: 'Partner' } }, admin);
    const partnerLogin = await v3.login({ loginCredentialDto: { email: 'partner@immich.cloud', password: 'password' } }, { baseUrl });
    const partner = { baseUrl, headers: { Authorization: `Bearer ${partnerLogin.accessToken}` } };
    const mine: string[] = [];
    for (let i = 0; i < 4; i++) mine.push(await upload(admin, [60 * i, 20, 90], `mine-${i}.jpg`));
    for (let i = 0; i < 2; i++) await upload(partner, [20, 60 * i, 90], `theirs-${i}.jpg`);
    await v3.createPartner({ partnerCreateDto: { sharedWithId: adminId } }, partner);
    await v3.createAlbum({ createAlbumDto: { albumName: 'Ours', assetIds: mine.slice(0, 2) } }, admin);
    await v3.updateAsset({ id: mine[3] ?? '', updateAssetDto: { isFavorite: true } }, admin);

    const phone = await v3.login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl });
    const streams: SyncLine[][] = [];
    const http = httpTransport(baseUrl, phone.accessToken);
    const counted: SyncTransport = {
      stream: async (body, options) => {
        const reply = await http.stream(body, options);
        streams.push(reply.lines);
        return reply;
      },
      ack: http.ack,
    };
    const client = new SyncClient(counted);
    for (let sync = 0; sync < 300 && streams.at(-1)?.at(-1)?.type !== 'SyncCompleteV1'; sync++) await client.sync();
    expect(streams.at(-1)?.at(-1)?.type).toBe('SyncCompleteV1');
    expect(streams.length).toBeGreaterThan(10);
    for (const lines of streams.slice(0, -1)) {
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.map((line) => line.type)).not.toContain('SyncCompleteV1');
    }

    // One whole sync of another session, its handler called in this process (no deadline near).
    const reference = new SyncClient(
      (await v3.login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl })).accessToken,
    );
    expect((await reference.sync()).at(-1)?.type).toBe('SyncCompleteV1');
    const tablesOf = (of: SyncClient) => Object.fromEntries(tableNames.map((name) => [name, Object.fromEntries(of.store.table(name))]));
    expect(tablesOf(client)).toEqual(tablesOf(reference));
    expect(client.assets.size).toBe(6);
    expect(client.exifs.size).toBe(6);
    expect(client.albumAssets.size).toBe(2);
  });
});
