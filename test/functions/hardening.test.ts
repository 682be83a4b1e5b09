import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAssetInfoHandler } from '#functions/asset/get-asset-info.ts';
import { handler as uploadHandler } from '#functions/asset/upload-file.ts';
import { bearer, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { makeJpeg } from '../support/photos.ts';
import { tableItems } from '../support/table-items.ts';
import { cliFields, upload } from '../support/uploads.ts';

// Regressions of what trying the API as an attacker or a careless client found: each case failed
// (a stall, a 500 or a wrong value) before its fix.

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const assetInfo = (token: string, id: string) =>
  invoke(getAssetInfoHandler, { path: `/api/asset/${id}`, headers: bearer(token), pathParameters: { id } });

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
});
