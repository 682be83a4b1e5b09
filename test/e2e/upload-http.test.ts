import { randomBytes } from 'node:crypto';
import { createApiKey, getAssetInfo, login, signUpAdmin, uploadFile } from '@immich/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { bodyLimitBytes, deployedUploadLimitMb } from '#infra/routes.ts';
import { uploadRoutingFunctionCode } from '#infra/web-app.ts';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { makeJpeg } from '../support/photos.ts';
import { startServer, target, useServer } from '../support/server.ts';

// @immich/sdk's uploadFile, on the local server with a small body limit (MAX_UPLOAD_MB in npm
// start), or on the synthesized stack with its deployed limit (4.4 MB), over which the
// distribution sends the upload to the ingress (docs/large-uploads.md).
const server = useServer({ uploadLimitBytes: 64 * 1024 });
let asUser: { baseUrl: string; headers: Record<string, string> };

beforeAll(async () => {
  const { baseUrl } = server;
  await signUpAdmin({ signUpDto: { email: 'admin@immich.cloud', password: 'password', name: 'Admin' } }, { baseUrl });
  const admin = await login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl });
  // Not about OCR or duplicates or faces: off, as each photo's cost (test/support/ml-tasks.ts).
  await turnOffMlTasks({ baseUrl, headers: { Authorization: `Bearer ${admin.accessToken}` } }, [
    'facialRecognition',
    'ocr',
    'duplicateDetection',
  ]);
  const { secret } = await createApiKey({ apiKeyCreateDto: {} }, { baseUrl, headers: { Authorization: `Bearer ${admin.accessToken}` } });
  asUser = { baseUrl, headers: { 'x-api-key': secret } };
});

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

  /** A v1.100 upload form one byte over the limit: a photo, with random bytes after its end. */
  const overLimit = () => {
    const form = new FormData();
    const big = Buffer.concat([makeJpeg({ make: 'Big' }), randomBytes(server.uploadLimitBytes + 1)]);
    for (const [key, value] of Object.entries(dto(big, 'big.jpg'))) form.append(key, value instanceof File ? value : String(value));
    return form;
  };

  if (target() === 'source')
    it('a body over the server limit: 413 naming the limit, before any handler runs', async () => {
      const limit = server.uploadLimitBytes;
      const response = await fetch(`${server.baseUrl}/asset/upload`, { method: 'POST', headers: asUser.headers, body: overLimit() });
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({
        message: `Request body is larger than the upload limit of ${Math.round((limit / 1024 / 1024) * 100) / 100} MB`,
        error: 'Payload Too Large',
        statusCode: 413,
      });
    });
  else {
    it('a body over Lambda’s limit goes to the ingress through the distribution, and is created', async () => {
      const response = await fetch(`${server.baseUrl}/asset/upload`, { method: 'POST', headers: asUser.headers, body: overLimit() });
      expect([response.status, await response.json()]).toEqual([201, { id: expect.any(String), duplicate: false }]);
    });

    it('with -c largeUploads=off (no ingress), the distribution’s function answers it: 413 saying how to upload large files', async () => {
      // The template's function in its off form (infra/web-app.ts), on these behaviours, and no ingress.
      const off = await startServer({
        adjust: (deployment) => {
          deployment.ingress = undefined;
          for (const behavior of deployment.edgeBehaviors) {
            // Off, the behaviours' origin is the API's (infra/cdk/web-distribution.ts).
            behavior.originId = 'api';
            behavior.viewerRequest.code = uploadRoutingFunctionCode({
              limitBytes: bodyLimitBytes({ body: 'upload' }, deployedUploadLimitMb),
              large: 'refuse',
            });
          }
        },
      });
      try {
        const response = await fetch(`${off.baseUrl}/asset/upload`, { method: 'POST', body: overLimit() });
        expect(response.status).toBe(413);
        expect(await response.json()).toEqual({
          message: expect.stringMatching(/larger than 4\.4 MB.*npm run upload/),
          error: 'Payload Too Large',
          statusCode: 413,
        });
      } finally {
        await off.close();
      }
    });
  }
});
