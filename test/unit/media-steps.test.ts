import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { uploadSteps } from '#shared/services/media/pipeline.ts';

/**
 * An upload's steps (shared/services/media/pipeline.ts) are the ones docs/media.md lists, in its
 * order: a step added, moved or removed without its row there fails here.
 */
describe("an upload's media steps", () => {
  it('are those docs/media.md names, in its order', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'media.md'), 'utf8');
    const section = doc.slice(doc.indexOf("## An upload's steps"), doc.indexOf('## Jobs'));
    const rows = [...section.matchAll(/^\| ([a-z][a-z ]*) \| `([a-z-]+)\.ts`/gm)].map(([, name, module]) => ({ name, module }));
    expect(rows.length).toBeGreaterThan(0);
    expect(uploadSteps.map((step) => step.name)).toEqual(rows.map((row) => row.name?.replace(/ /g, '-')));
    expect(rows.map((row) => row.module)).toEqual(rows.map((row) => row.name?.replace(/ /g, '-')));
  });
});
