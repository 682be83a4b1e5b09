/**
 * `npm run bench -- markers`: the map's markers at scale (docs/places.md, "The map"): one user's
 * library of 10k, 50k and 100k assets with a position, GET /api/map/markers through the local
 * server as the web app calls it (gzip accepted): time to the first byte, total time, read
 * capacity, bytes sent and what they decompress to; and the same reads as one Query chain (one
 * range, one reader: how the markers were read before they were streamed).
 */
import { get, type IncomingMessage } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { startLocalStack } from './local-stack.ts';
import { median, table } from './stats.ts';
import { meterReads, putItems } from './table-io.ts';

const sizes = [10_000, 50_000, 100_000];
// One call a size and way (a 100k call reads for seconds): the machine's noise is in the figures.
const runs = 1;

export const markersSection = {
  name: 'markers',
  async run(): Promise<string> {
    const stack = await startLocalStack();
    try {
      const { db } = await import('#shared/db/client.ts');
      const { assetItem } = await import('#shared/db/items/asset.ts');
      const { markerReads } = await import('#shared/services/map.service.ts');
      const { geoLibrary } = await import('../support/geo-library.ts');
      const meter = meterReads(db);
      const parallel = { ...markerReads };
      const rows: string[][] = [];
      let written = 0;
      const library = geoLibrary(stack.admin.id, sizes.at(-1) ?? 0, 7);
      const call = async () => {
        meter.items = 0;
        meter.capacity = 0;
        const started = performance.now();
        // node:http, not fetch (which undoes the gzip): the body is read as sent.
        const response = await new Promise<IncomingMessage>((resolve, reject) =>
          get(
            `${stack.baseUrl}/map/markers?isArchived=true`,
            { headers: { ...stack.adminAuth.headers, 'accept-encoding': 'gzip' } },
            resolve,
          ).on('error', reject),
        );
        if (response.statusCode !== 200) throw new Error(`markers: HTTP ${response.statusCode}`);
        const chunks: Buffer[] = [];
        let firstByte = 0;
        for await (const chunk of response) {
          if (!firstByte) firstByte = performance.now() - started;
          chunks.push(chunk as Buffer);
        }
        const total = performance.now() - started;
        const sent = Buffer.concat(chunks);
        const text = response.headers['content-encoding'] === 'gzip' ? gunzipSync(sent) : sent;
        return {
          firstByte,
          total,
          sent: sent.length,
          bytes: text.length,
          markers: (JSON.parse(text.toString('utf8')) as unknown[]).length,
          rcu: meter.capacity,
          items: meter.items,
        };
      };
      for (const size of sizes) {
        await putItems(db, stack.tableName, library.slice(written, size).map(assetItem));
        written = size;
        for (const [mode, reads] of [
          ['ranges read in parallel (now)', parallel],
          ['one Query chain (before)', { ...parallel, rangesPerOwner: 1, readers: 1 }],
        ] as const) {
          Object.assign(markerReads, reads);
          const samples: Awaited<ReturnType<typeof call>>[] = [];
          for (let i = 0; i < runs; i++) samples.push(await call());
          const pick = (get: (sample: (typeof samples)[number]) => number) => median(samples.map(get));
          rows.push([
            `${size / 1000}k`,
            mode,
            pick((s) => s.markers).toLocaleString('en'),
            `${(pick((s) => s.firstByte) / 1000).toFixed(2)} s`,
            `${(pick((s) => s.total) / 1000).toFixed(2)} s`,
            pick((s) => s.rcu).toFixed(0),
            `${(pick((s) => s.sent) / 1e6).toFixed(1)} MB`,
            `${(pick((s) => s.bytes) / 1e6).toFixed(1)} MB`,
          ]);
        }
        Object.assign(markerReads, parallel);
      }
      return [
        `One user's library of assets with a position (generated with the product's item builder: test/support/geo-library.ts; 2 % trashed, so not on the map), GET /api/map/markers?isArchived=true through the local server on DynamoDB Local, gzip accepted as the web app and the apps accept it. ${runs === 1 ? 'One call' : `Medians of ${runs} calls`} each, on a machine shared with other work (latencies are noisy; read units and bytes are not). "Before": the same code with one range and one reader, the one Query chain the markers were read with before they were streamed (they were then also held, sorted and sent at once, past 6 MB failing deployed). Read capacity as DynamoDB Local reports it (eventually consistent index reads).`,
        '',
        table(['library', 'reads', 'markers', 'first byte', 'total', 'RCU', 'sent (gzip)', 'JSON'], rows),
      ].join('\n');
    } finally {
      await stack.stop();
    }
  },
};
