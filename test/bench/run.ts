/**
 * `npm run bench`: measurements that must never be timed tests. Prints each section and rewrites
 * it in docs/benchmarks.md between its `<!-- bench:NAME -->` markers.
 *   node test/bench/run.ts            all sections
 *   node test/bench/run.ts functions  only the named sections
 *   node test/bench/run.ts transcode transcode-cost   video conversion (test/bench/transcode.ts), into benchmarks.md and cost.md
 *   node test/bench/run.ts ml         smart search, OCR, the perceptual hash (test/bench/ml.ts), into benchmarks.md and cost.md
 *   node test/bench/run.ts stall      the stall soak (test/bench/stall.ts; STALL_ONLY=<regex> for some of its requests)
 *   node test/bench/run.ts scale 10k 100k   large libraries at these sizes (test/bench/scale.ts; default 100k)
 *   node test/bench/run.ts scale 10k --reuse DIR   and a library kept by `--keep DIR` (test/bench/scale.ts)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceSection } from './stats.ts';

const root = join(import.meta.dirname, '..', '..');
const docPath = join(root, 'docs', 'benchmarks.md');

export interface Section {
  name: string;
  /** The file in docs/ its result goes to (default benchmarks.md). */
  doc?: string;
  run(): Promise<string>;
}

// Modules under test read their settings at import; sections that need a live table start
// DynamoDB Local themselves and point these at it.
process.env.TABLE_NAME ??= 'bench';
process.env.AWS_REGION ??= 'us-east-1';
process.env.LOG_LEVEL = 'silent';

const sections: Section[] = [
  (await import('./functions.ts')).functionsSection,
  (await import('./functions.ts')).backupSection,
  (await import('./overhead.ts')).overheadSection,
  (await import('./auth.ts')).authSection,
  (await import('./uploads.ts')).uploadsSection,
  (await import('./reads.ts')).readsSection,
  (await import('./realtime.ts')).realtimeSection,
  (await import('./greeter.ts')).greeterSection,
  (await import('./search.ts')).searchSection,
  (await import('./timeline.ts')).timelineSection,
  (await import('./sync.ts')).syncSection,
  (await import('./archive.ts')).archiveSection,
  (await import('./large-uploads.ts')).largeUploadsSection,
  (await import('./ingress.ts')).ingressSection,
  (await import('./load.ts')).loadSection,
  (await import('./cost.ts')).costSection,
  (await import('./powertools.ts')).powertoolsSection,
  (await import('./media.ts')).mediaSection,
  (await import('./media-throughput.ts')).mediaThroughputSection,
  (await import('./transcode.ts')).transcodeSection,
  (await import('./transcode.ts')).transcodeCostSection,
  (await import('./places.ts')).placesSection,
  (await import('./faces.ts')).facesSection,
  (await import('./ml.ts')).mlSection,
  (await import('./stall.ts')).stallSection,
  (await import('./build.ts')).buildSection,
  (await import('./scale.ts')).scaleSection,
  (await import('./albums-scale.ts')).albumsScaleSection,
  (await import('./markers.ts')).markersSection,
];

// Sizes (`10k`, `100000`) and `--keep DIR`, `--reuse DIR`, ... are the scale section's arguments, not section names.
const scaleArgs = (await import('./scale.ts')).scaleArgValues(process.argv.slice(2));
const wanted = process.argv.slice(2).filter((arg) => !scaleArgs.has(arg));
for (const section of sections.filter((s) => wanted.length === 0 || wanted.includes(s.name))) {
  console.log(`\n## ${section.name}`);
  const body = await section.run();
  console.log(body);
  const path = section.doc ? join(root, 'docs', section.doc) : docPath;
  const doc = replaceSection(
    readFileSync(path, 'utf8'),
    section.name,
    `_Measured ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${process.arch}._\n\n${body}`,
  );
  writeFileSync(path, doc);
  console.log(`\nwrote ${path}`);
}
