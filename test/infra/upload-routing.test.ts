/**
 * The upload paths' viewer-request function (infra/web-app.ts `uploadRoutingFunctionCode`), run as
 * CloudFront would run it: in a fresh context, with a stand-in for CloudFront's `cloudfront` module
 * that records the origin the function selects. The limit is the one the stack deploys (the upload
 * routes' file limit, infra/routes.ts), so a change of that limit moves the routing with it.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { bodyLimitBytes, deployedUploadLimitMb } from '#infra/routes.ts';
import { originIds, type UploadRoutingOptions, uploadPaths, uploadRoutingFunctionCode } from '#infra/web-app.ts';

type Headers = Record<string, { value: string }>;
interface Request {
  method: string;
  uri: string;
  headers: Headers;
  querystring: Record<string, unknown>;
  cookies: Record<string, unknown>;
}
interface Response {
  statusCode: number;
  statusDescription?: string;
  headers: Headers;
  body: { encoding: string; data: string };
}

const limitBytes = bodyLimitBytes({ body: 'upload' }, deployedUploadLimitMb);
const mebibyte = 1024 * 1024;
const moduleImport = "import cf from 'cloudfront';\n";

/** Runs the function's code once for a request: what it returned, and the origin it selected (if any). */
const run = (options: UploadRoutingOptions, request: Request): { result: Request | Response; selected: string[] } => {
  const code = uploadRoutingFunctionCode(options);
  const selected: string[] = [];
  // CloudFront requires the module's import on the function's first line; a script cannot import, so
  // the stand-in module is given as the binding the import makes.
  const usesModule = code.startsWith(moduleImport);
  const script = usesModule ? code.slice(moduleImport.length) : code;
  expect(script).not.toContain('import ');
  const context: Record<string, unknown> = {
    cf: usesModule ? { selectRequestOriginById: (id: string) => selected.push(id) } : undefined,
  };
  runInNewContext(`${script}\nresult = handler(event);`, Object.assign(context, { event: { version: '1.0', request } }));
  return { result: context.result as Request | Response, selected };
};

const post = (uri: string, length?: number | string, extra: Headers = {}): Request => ({
  method: 'POST',
  uri,
  headers: {
    'content-type': { value: 'multipart/form-data; boundary=x' },
    ...(length === undefined ? {} : { 'content-length': { value: String(length) } }),
    ...extra,
  },
  querystring: {},
  cookies: {},
});

describe('the upload paths’ routing with the ingress', () => {
  const ingress: UploadRoutingOptions = { limitBytes, large: 'ingress' };

  it('imports CloudFront’s helper module on its first line, as runtime 2.0 requires', () => {
    expect(uploadRoutingFunctionCode(ingress).startsWith(moduleImport)).toBe(true);
  });

  // The behaviours' own origin is the ingress (infra/cdk/web-distribution.ts): a large upload is
  // left there (no origin selected), the rest is sent to the API's origin by id.
  it('leaves a POST over the Lambda limit (a 10 MB video) on the behaviour’s origin, the ingress, unchanged', () => {
    for (const path of uploadPaths) {
      const request = post(path, 10 * mebibyte);
      const { result, selected } = run(ingress, request);
      expect(selected).toEqual([]);
      expect(result).toBe(request);
      expect(result).toEqual(post(path, 10 * mebibyte));
    }
  });

  it('sends a POST within the limit (a 1 MB photo) to the API, exactly at the limit too; one byte over to the ingress', () => {
    expect(run(ingress, post('/api/assets', mebibyte)).selected).toEqual([originIds.api]);
    expect(run(ingress, post('/api/asset/upload', limitBytes)).selected).toEqual([originIds.api]);
    expect(run(ingress, post('/api/asset/upload', limitBytes + 1)).selected).toEqual([]);
  });

  it('leaves a POST without a length (a chunked body) or with one that is not a number on the ingress, which answers it', () => {
    for (const request of [
      post('/api/assets'),
      post('/api/assets', '', { 'transfer-encoding': { value: 'chunked' } }),
      post('/api/assets', '12e9'),
      post('/api/assets', '-1'),
    ]) {
      const { result, selected } = run(ingress, request);
      expect(selected, JSON.stringify(request.headers)).toEqual([]);
      expect(result).toBe(request);
    }
  });

  // The ingress cannot reach the link secret deployed (docs/large-uploads.md): a visitor's upload
  // through a shared link stays with Lambda, and a large one is answered here.
  it('keeps an upload through a shared link (key or slug, header or query) with Lambda: a small one to the API, a large one a 413', () => {
    const linked: Request[] = [
      post('/api/assets', 10 * mebibyte, { 'x-immich-share-key': { value: 'k' } }),
      post('/api/asset/upload', 10 * mebibyte, { 'x-immich-share-slug': { value: 's' } }),
      { ...post('/api/assets', 10 * mebibyte), querystring: { key: { value: 'k' } } },
      { ...post('/api/assets'), querystring: { slug: { value: 's' } } },
    ];
    for (const request of linked) {
      const { result, selected } = run(ingress, request);
      expect(selected, JSON.stringify(request)).toEqual([]);
      const response = result as Response;
      expect(response.statusCode).toBe(413);
      expect((JSON.parse(response.body.data) as { message: string }).message).toMatch(/shared link takes files of at most/);
    }
    const small = post('/api/assets', mebibyte, { 'x-immich-share-key': { value: 'k' } });
    expect(run(ingress, small)).toEqual({ result: small, selected: [originIds.api] });
  });

  it('sends everything that is not a POST to the API, whatever its length (GET /api/assets lists assets)', () => {
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']) {
      const request = { ...post('/api/assets', 10 * mebibyte), method };
      const { result, selected } = run(ingress, request);
      expect(selected, method).toEqual([originIds.api]);
      expect(result).toBe(request);
    }
  });
});

describe('the upload paths’ routing without the ingress (-c largeUploads=off)', () => {
  const off: UploadRoutingOptions = { limitBytes, large: 'refuse' };

  it('answers a large POST itself with a 413 that says how to upload large files, in each generation’s error shape', () => {
    const v1 = run(off, post('/api/asset/upload', 10 * mebibyte));
    const v3 = run(off, post('/api/assets'));
    expect(v1.selected).toEqual([]);
    for (const { result } of [v1, v3]) {
      const response = result as Response;
      expect(response.statusCode).toBe(413);
      expect(response.headers['content-type']?.value).toMatch(/^application\/json/);
      expect(response.body.encoding).toBe('text');
    }
    const v1Body = JSON.parse((v1.result as Response).body.data) as { message: string; error: string; statusCode: number };
    expect(v1Body).toEqual({ message: expect.any(String), error: 'Payload Too Large', statusCode: 413 });
    expect(v1Body.message).toContain('npm run upload');
    expect(v1Body.message).toContain('docs/large-uploads.md');
    expect(v1Body.message).toContain(`${deployedUploadLimitMb} MB`);
    expect(JSON.parse((v3.result as Response).body.data)).toEqual({ message: v1Body.message });
  });

  it('passes a small POST and every other method on unchanged, to the behaviour’s origin (the API)', () => {
    for (const request of [post('/api/assets', mebibyte), { ...post('/api/assets', 10 * mebibyte), method: 'GET' }]) {
      const { result, selected } = run(off, request);
      expect(result).toBe(request);
      expect(selected).toEqual([]);
    }
  });

  it('needs no helper module: it selects no origin', () => {
    expect(uploadRoutingFunctionCode(off)).not.toContain('cloudfront');
  });
});
