import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogShipper } from '#infra/ingress/log-shipper.ts';

// A stand-in of CloudWatch Logs' JSON protocol on loopback (not a mock of the SDK: the real client
// signs and sends its requests here), recording each call, and refusing them while `refusing`.
interface Call {
  action: string;
  body: { logGroupName?: string; logStreamName?: string; logEvents?: { timestamp: number; message: string }[] };
}
const calls: Call[] = [];
let refusing = false;
let server: Server;
let client: CloudWatchLogsClient;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const action = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      calls.push({ action, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Call['body'] });
      res.setHeader('content-type', 'application/x-amz-json-1.1');
      if (refusing) {
        res.writeHead(400);
        res.end(JSON.stringify({ __type: 'InvalidParameterException', message: 'refused' }));
        return;
      }
      if (action === 'CreateLogStream' && calls.filter((call) => call.action === 'CreateLogStream').length > 1) {
        res.writeHead(400);
        res.end(JSON.stringify({ __type: 'ResourceAlreadyExistsException', message: 'exists' }));
        return;
      }
      res.writeHead(200);
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new CloudWatchLogsClient({
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("the ingress's log shipper", () => {
  it('creates its stream once and sends the lines in order, in batches within PutLogEvents limits', async () => {
    const shipper = new LogShipper('/immich/test/ingress', client);
    shipper.push('{"message":"first"}');
    shipper.push('{"message":"second"}');
    await shipper.flush();
    expect(calls.map((call) => call.action)).toEqual(['CreateLogStream', 'PutLogEvents']);
    expect(calls[0]?.body).toEqual({ logGroupName: '/immich/test/ingress', logStreamName: shipper.stream });
    expect(calls[1]?.body.logEvents?.map((event) => event.message)).toEqual(['{"message":"first"}', '{"message":"second"}']);

    // 12,000 lines: more than one call takes (10,000 events).
    for (let index = 0; index < 12_000; index++) shipper.push(`line ${index}`);
    await shipper.flush();
    const puts = calls.slice(2).filter((call) => call.action === 'PutLogEvents');
    expect(puts.map((call) => call.body.logEvents?.length)).toEqual([10_000, 2_000]);
    expect(puts[1]?.body.logEvents?.at(-1)?.message).toBe('line 11999');
    expect(calls.slice(2).some((call) => call.action === 'CreateLogStream')).toBe(false);
  });

  it('takes a stream that exists already, keeps the lines CloudWatch refused and sends them with the next flush', async () => {
    const shipper = new LogShipper('/immich/test/ingress', client);
    shipper.push('sent');
    await shipper.flush();
    expect(calls.at(-1)?.body.logEvents?.map((event) => event.message)).toEqual(['sent']);
    refusing = true;
    shipper.push('kept');
    await expect(shipper.flush()).rejects.toThrow('refused');
    refusing = false;
    shipper.push('after');
    await shipper.flush();
    const sent = calls.filter((call) => call.action === 'PutLogEvents' && call.body.logEvents).at(-1);
    expect(sent?.body.logEvents?.map((event) => event.message)).toEqual(['kept', 'after']);
  });
});
