import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { ownProcess, startLocalStack } from './local-stack.ts';
import type { Section } from './run.ts';
import { table } from './stats.ts';

/**
 * The ingress (infra/ingress/main.ts, docs/large-uploads.md) as its own process, as on its
 * instance: Node with a 256 MB heap (a t4g.nano's 0.5 GiB), against s3rver (the originals bucket)
 * and DynamoDB Local. Uploads of 100 MB, 1 GB and 4 GB, each a v3 `POST /api/assets` whose file is
 * generated as it is sent (never on disk), each into a fresh ingress process: throughput (the
 * request's start to its answer, the record step included) and the process's peak resident memory
 * (VmHWM). Client, ingress, s3rver and DynamoDB Local share the machine's two cores and one disk:
 * S3's own work (the parts' MD5, joining them) is on this machine too, so the figures are a floor.
 */
const mebibyte = 1024 * 1024;
const sizes = (process.env.INGRESS_BENCH_MB ?? '100,1024,4096').split(',').map((mb) => Number(mb) * mebibyte);
const root = join(import.meta.dirname, '..', '..');

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

const status = (pid: number, field: 'VmHWM' | 'VmRSS'): number => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${field}:`));
  return Number(line?.split(/\s+/)[1] ?? 0) * 1024;
};

const get = (port: number, path: string): Promise<number> =>
  new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.end();
  });

/** The ingress's own process, started from its entry with the upload functions' environment and its own. */
const startIngress = async (env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> => {
  const port = await freePort();
  const child = spawn(process.execPath, ['--max-old-space-size=256', join(root, 'infra/ingress/main.ts')], {
    env: { ...process.env, ...env, INGRESS_PORT: String(port), INGRESS_HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // Ready once it answers its health (a start-up wait, nothing measured).
  while ((await get(port, '/health')) !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
  return { child, port };
};

/** A v3 form whose file is `size` random bytes made as they are sent (one 1 MiB block, its first bytes numbered). */
const generatedForm = (size: number) => {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const fields = {
    deviceAssetId: `bench-${size}`,
    deviceId: 'bench',
    fileCreatedAt: new Date().toISOString(),
    fileModifiedAt: new Date().toISOString(),
  };
  const head = Buffer.from(
    `${Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join(
        '',
      )}--${boundary}\r\nContent-Disposition: form-data; name="assetData"; filename="bench-${size}.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const block = randomBytes(mebibyte);
  const body = Readable.from(
    (function* () {
      yield head;
      for (let sent = 0, index = 0; sent < size; index++) {
        const chunk = Buffer.from(block.subarray(0, Math.min(mebibyte, size - sent)));
        chunk.writeUInt32BE(index, 0);
        sent += chunk.length;
        yield chunk;
      }
      yield tail;
    })(),
  );
  return {
    body,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + size + tail.length) },
  };
};

const upload = (port: number, token: string, size: number): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const form = generatedForm(size);
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: '/api/assets', headers: { ...form.headers, authorization: `Bearer ${token}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    form.body.pipe(req);
  });

const measure = async (): Promise<string> => {
  const work = mkdtempSync(join(tmpdir(), 'bench-ingress-'));
  const bucket = 'originals';
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: work,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port: s3Port } = (await s3.run()) as { port: number };
  const stack = await startLocalStack();
  const token = stack.adminAuth.headers.Authorization.replace('Bearer ', '');
  const env = {
    ORIGINALS_BUCKET: bucket,
    AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${s3Port}`,
    S3_FORCE_PATH_STYLE: 'true',
    // s3rver's fixed credentials; DynamoDB Local (a shared database) accepts any.
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
  };
  const rows: (string | number)[][] = [];
  try {
    for (const size of sizes) {
      const { child, port } = await startIngress(env);
      const pid = child.pid ?? 0;
      try {
        const idle = status(pid, 'VmRSS');
        const started = performance.now();
        const answer = await upload(port, token, size);
        const seconds = (performance.now() - started) / 1000;
        if (answer.status !== 201) throw new Error(`${size / mebibyte} MB: ${answer.status} ${answer.body}`);
        const peak = status(pid, 'VmHWM');
        rows.push([
          size >= 1024 * mebibyte ? `${size / 1024 / mebibyte} GB` : `${size / mebibyte} MB`,
          seconds.toFixed(1),
          (size / mebibyte / seconds).toFixed(0),
          (idle / mebibyte).toFixed(0),
          (peak / mebibyte).toFixed(0),
        ]);
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
        // The stored object goes before the next size: the disk holds one at a time.
        rmSync(join(work, bucket, 'upload'), { recursive: true, force: true });
      }
    }
  } finally {
    await stack.stop();
    await s3.close();
    rmSync(work, { recursive: true, force: true });
  }
  return [
    "One v3 upload per size through the ingress as its own process (`--max-old-space-size=256`), into s3rver and DynamoDB Local on the same 2 cores; memory is the process's resident set (idle after start; peak = VmHWM).",
    '',
    table(['File', 'Seconds', 'MB/s', 'Idle RSS MB', 'Peak RSS MB'], rows),
  ].join('\n');
};

if (import.meta.main) process.stdout.write(await measure());

export const ingressSection: Section = { name: 'ingress', run: ownProcess(import.meta.url) };
