import type { AddressInfo } from 'node:net';
import { createApiKey, getAssetInfo, login, signUpAdmin, uploadFile } from '@immich/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalServer } from '#infra/local/http-server.ts';
import { makeJpeg } from '../support/photos.ts';

// The local server with a small body limit (MAX_UPLOAD_MB in npm start), and @immich/sdk's uploadFile.
const limit = 64 * 1024;
const server = createLocalServer({ uploadLimitBytes: limit });
let baseUrl = '';
let asUser: { baseUrl: string; headers: Record<string, string> };

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  await signUpAdmin({ signUpDto: { email: 'admin@immich.cloud', password: 'password', name: 'Admin' } }, { baseUrl });
  const admin = await login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl });
  const { secret } = await createApiKey({ apiKeyCreateDto: {} }, { baseUrl, headers: { Authorization: `Bearer ${admin.accessToken}` } });
  asUser = { baseUrl, headers: { 'x-api-key': secret } };
});

afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

const dto = (data: Buffer, name: string) => ({
  assetData: new File([new Uint8Array(data)], name),
  deviceAssetId: `${name}-${data.length}`,
  deviceId: 'sdk',
  fileCreatedAt: '2024-05-06T07:08:09.000Z',
  fileModifiedAt: '2024-05-06T07:08:09.000Z',
  isFavorite: true,
});

describe('uploads over HTTP', () => {
  it('@immich/sdk uploadFile: 201 new, then the same file is a duplicate; the owner sees isFavorite', async () => {
    const data = makeJpeg({ make: 'SDK' });
    const created = await uploadFile({ createAssetDto: dto(data, 'sdk.jpg') }, asUser);
    expect(created).toEqual({ id: expect.any(String), duplicate: false });
    expect(await uploadFile({ createAssetDto: dto(data, 'again.jpg') }, asUser)).toEqual({ id: created.id, duplicate: true });
    expect(await getAssetInfo({ id: created.id }, asUser)).toMatchObject({
      originalFileName: 'sdk.jpg',
      isFavorite: true,
      exifInfo: { make: 'SDK' },
    });
  });

  it('a body over the server limit: 413 naming the limit, before any handler runs', async () => {
    const big = makeJpeg({ width: 256, height: 256, noise: true });
    expect(big.length).toBeGreaterThan(limit);
    const form = new FormData();
    for (const [key, value] of Object.entries(dto(big, 'big.jpg'))) form.append(key, value instanceof File ? value : String(value));
    const response = await fetch(`${baseUrl}/asset/upload`, { method: 'POST', headers: asUser.headers, body: form });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      message: 'Request body is larger than the upload limit of 0.06 MB',
      error: 'Payload Too Large',
      statusCode: 413,
    });
  });
});
