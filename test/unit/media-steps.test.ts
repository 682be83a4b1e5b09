import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PersonRecord } from '#shared/model/person.ts';
import { duplicateDetectionSteps, editSteps, faceDetectionSteps, faceRecognitionSteps } from '#shared/services/media/jobs.ts';
import { personThumbnailSteps, uploadSteps } from '#shared/services/media/pipeline.ts';
import { clipJobSteps } from '#shared/services/media/steps/clip.ts';
import { ocrJobSteps } from '#shared/services/media/steps/ocr.ts';

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

/**
 * Every job of the media function runs named steps (docs/media.md, "Jobs"): each job's list is
 * the one its row in docs/media.md names, in order.
 */
describe("the media jobs' steps", () => {
  it('are those docs/media.md names for each job, in its order', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'media.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Jobs'), doc.indexOf('## Adding a step or a job'));
    const rows = Object.fromEntries(
      [...section.matchAll(/^\| ([a-z][a-z-]*(?: \(\w+\))?) \| ([a-z, -]+) \|$/gm)]
        .filter(([, job]) => job !== 'job')
        .map(([, job, steps]) => [job, steps?.split(', ')]),
    );
    const person = { id: 'p', faceAssetId: 'a' } as PersonRecord;
    expect(rows).toEqual({
      'person-thumbnail': personThumbnailSteps(person).map((step) => step.name),
      'asset-edits': editSteps.map((step) => step.name),
      'asset-faces (faceDetection)': faceDetectionSteps(false).map((step) => step.name),
      'asset-faces (facialRecognition)': faceRecognitionSteps.map((step) => step.name),
      'asset-clip (smartSearch)': clipJobSteps(false).map((step) => step.name),
      'asset-ocr (ocr)': ocrJobSteps(false).map((step) => step.name),
      'asset-duplicates (duplicateDetection)': duplicateDetectionSteps(false).map((step) => step.name),
    });
  });
});
