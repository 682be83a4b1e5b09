import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countOutput } from '../table-io.ts';

/**
 * What the deployed form's functions read and write, counted between the IAM-checking gateway and
 * DynamoDB Local (the functions run in their own environments with their own clients, so the
 * bench's meter on its own client, test/bench/table-io.ts, sees none of it): each call is passed
 * on with `ReturnConsumedCapacity: TOTAL` added, and its answer counted as `meterReads` counts it:
 * items (a Query's ScannedCount, a BatchGetItem's and a GetItem's items), read units, and write
 * units with the index copies of each item put (as AWS bills them; DynamoDB Local reports the
 * table's). The answer goes back to the function unchanged but for the capacity it now carries.
 */
export const startDynamoMeter = async (
  endpoint: string,
  indexes: readonly { partitionKey: string; include?: readonly string[] }[],
): Promise<{ endpoint: string; meter: { items: number; capacity: number; writes: number }; close(): Promise<void> }> => {
  const meter = { items: 0, capacity: 0, writes: 0 };
  const target = new URL(endpoint);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const operation =
        String(req.headers['x-amz-target'] ?? '')
          .split('.')
          .pop() ?? '';
      const write = /^(Put|Update|Delete)Item$|^Transact(Write)Items$|^BatchWriteItem$/.test(operation);
      let body = Buffer.concat(chunks);
      let input: Record<string, unknown> | undefined;
      if (body.length > 0 && /Item|Items|Query/.test(operation)) {
        input = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
        input.ReturnConsumedCapacity = 'TOTAL';
        body = Buffer.from(JSON.stringify(input));
        if (write) meter.writes += indexWrites(input, indexes);
      }
      const upstream = request(
        {
          host: target.hostname,
          port: target.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, 'content-length': body.length },
        },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            const text = Buffer.concat(parts);
            if (input && answer.statusCode === 200 && answer.headers['content-encoding'] === undefined)
              countOutput(JSON.parse(text.toString('utf8')) as Record<string, unknown>, write, meter);
            const { 'transfer-encoding': _chunked, ...headers } = answer.headers;
            res.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': text.length });
            res.end(text);
          });
        },
      );
      upstream.on('error', (error) => {
        res.writeHead(502);
        res.end(error.message);
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    meter,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** A DynamoDB JSON value as the document client gives it (its size then is what `meterReads` measures). */
const plain = (value: unknown): unknown => {
  if (!value || typeof value !== 'object') return value;
  const [[type, inner] = []] = Object.entries(value);
  if (type === 'M') return Object.fromEntries(Object.entries(inner as Record<string, unknown>).map(([k, v]) => [k, plain(v)]));
  if (type === 'L') return (inner as unknown[]).map(plain);
  if (type === 'N') return Number(inner);
  if (type === 'NULL') return null;
  return inner;
};
const plainItem = (item: Record<string, unknown>) => Object.fromEntries(Object.entries(item).map(([k, v]) => [k, plain(v)]));

/** The index copies of the items a write puts (test/bench/table-io.ts `meterReads`, on DynamoDB JSON). */
const indexWrites = (input: Record<string, unknown>, indexes: readonly { partitionKey: string; include?: readonly string[] }[]): number => {
  const puts: Record<string, unknown>[] = [
    ...(input.Item ? [input.Item as Record<string, unknown>] : []),
    ...Object.values((input.RequestItems ?? {}) as Record<string, { PutRequest?: { Item: Record<string, unknown> } }[]>)
      .flat()
      .flatMap((each) => (each.PutRequest ? [each.PutRequest.Item] : [])),
    ...((input.TransactItems ?? []) as { Put?: { Item: Record<string, unknown> } }[]).flatMap((each) => (each.Put ? [each.Put.Item] : [])),
  ];
  let units = 0;
  for (const item of puts) {
    const kb = Math.max(1, Math.ceil(Buffer.byteLength(JSON.stringify(plainItem(item))) / 1024));
    for (const index of indexes) if (index.partitionKey in item) units += index.include ? 1 : kb;
  }
  return units;
};
