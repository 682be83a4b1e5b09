/**
 * Smart search and OCR in Immich's v3 web app, for `npm run e2e:web -- <v3 build> --ml` (issue 53's
 * acceptance in the real app; docs/search.md, docs/ocr.md, docs/machine-learning.md).
 *
 * `--ml`: the admin points machine learning at an Immich ML stand-in (test/support/ml-service.ts,
 * embeddings from an image's mean colour; its `ocr` task answers the lines the run sets) through
 * v3's config API, as a person does in Administration → Settings. `--ml-local`: no ML service;
 * the server runs the Immich-layout CLIP folder test/support/clip-model.ts writes (ML_MODELS_DIR,
 * embeddings from colour too) and the PP-OCR engine on the photos (the defaults).
 *
 * Red, green and blue photos and a photo with "SUMMER HOLIDAY" (test/support/text-images.ts) are uploaded by
 * @immich/sdk-v3; once each is embedded and read, Chromium types "red" in the app's search bar
 * (its search type "Context", smart search) and the red photo must be the first result; then it
 * picks the search type "OCR" and types a word of the text: the text photo is the only result;
 * then it opens that photo and turns on the viewer's "Text recognition" overlay, whose boxes must
 * show the text; last, Utilities → Duplicates lists the text photo and a smaller copy of it as a
 * group, and its "Trash 1" keeps one and trashes the other; then the admin's Job Queues page runs the
 * smart search, duplicate detection and OCR queues. Every `/api` answer of 400 or more fails the run (test/web/e2e-web.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  getAssetDuplicates,
  getAssetInfo,
  getAssetOcr,
  getConfig,
  getServerFeatures,
  searchSmart,
  setUserOnboarding,
  updateAdminOnboarding,
  updateConfig,
} from '@immich/sdk-v3';
import type { Page } from 'playwright-core';
import { vips } from '#shared/media/images.ts';
import { makeClipModelDir } from '../support/clip-model.ts';
import { type MlService, startMlService } from '../support/ml-service.ts';
import { makeJpeg } from '../support/photos.ts';
import { sdkUpload } from '../support/sdk.ts';
import { makeTextImage, type TextImage } from '../support/text-images.ts';
import type { RunV3 } from './e2e-web-v3.ts';

export type MlBackend = 'stand-in' | 'local';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The server's environment for the back end: the local run's model folder (ML_MODELS_DIR). */
export const mlServerEnv = (backend: MlBackend): Record<string, string> => {
  if (backend === 'stand-in') return {};
  const root = mkdtempSync(join(tmpdir(), 'e2e-web-ml-models-'));
  makeClipModelDir(root);
  return { ML_MODELS_DIR: root };
};

/** Polls `read` until `done` holds of its answer (bounded); the last answer. */
const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> => {
  let value = await read();
  for (let tries = 0; tries < 600 && !done(value); tries++) {
    await sleep(250);
    value = await read();
  }
  if (!done(value)) throw new Error(`${what}: not done after 150 s (${JSON.stringify(value).slice(0, 300)})`);
  return value;
};

/** The asset ids of the search results page's thumbnails, in their order on the page. */
const resultIds = async (page: Page): Promise<string[]> => {
  const sources = await page.locator('img[src*="/api/assets/"][src*="/thumbnail"]').evaluateAll(
    // A string of the page's: this project's TypeScript has no DOM library.
    (images) => images.map((image) => (image as unknown as { getAttribute(name: string): string | null }).getAttribute('src') ?? ''),
  );
  const ids = sources.map((source) => source.match(/\/api\/assets\/([0-9a-f-]{36})\/thumbnail/)?.[1] ?? '').filter(Boolean);
  return [...new Set(ids)];
};

/**
 * Types `query` in the app's search bar and presses Enter; once the results page shows the
 * thumbnails of what the search answered (the timeline's are gone), the ids on the page in their
 * order, and what the app asked.
 */
const searchFromBar = async (
  page: Page,
  query: string,
  route: '/api/search/smart' | '/api/search/metadata',
): Promise<{ ids: string[]; asked: unknown; answered: string[] }> => {
  const bar = page.getByPlaceholder('Search your photos');
  await bar.click();
  await bar.fill(query);
  const replied = page.waitForResponse((reply) => new URL(reply.url()).pathname === route && reply.request().method() === 'POST');
  await bar.press('Enter');
  const reply = await replied;
  if (reply.status() !== 200) throw new Error(`${route} answered ${reply.status()}`);
  const answered = ((await reply.json()) as { assets: { items: { id: string }[] } }).assets.items.map((asset) => asset.id);
  await page.waitForURL('**/search?**');
  // The results page's chip of the search, then its thumbnails (bounded: the page may still hold the timeline's).
  await page.getByText(query, { exact: true }).first().waitFor();
  let ids = await resultIds(page);
  for (let tries = 0; tries < 100 && ids.join() !== answered.join(); tries++) {
    await sleep(100);
    ids = await resultIds(page);
  }
  return { ids, asked: reply.request().postDataJSON() as unknown, answered };
};

/**
 * Utilities → Duplicates: a half-size re-encoded copy of the text photo is uploaded; once the media
 * function grouped the two (the perceptual hash, and with the stand-in the CLIP neighbours too),
 * the page lists the group, and its "Trash 1" keeps the suggested photo (the larger original) and
 * trashes the copy, as a person resolves it.
 */
const duplicates = async (run: RunV3, page: Page, original: Buffer, originalId: string): Promise<void> => {
  const { origin, admin, decodedImages, screenshot } = run;
  const { Image } = await vips();
  const copy = Image.newFromBuffer(original);
  const copyId = await sdkUpload(admin, Buffer.from(copy.resize(0.5).jpegsaveBuffer({ Q: 80 })), 'holiday-small.jpg');
  copy.delete();
  const [group] = await until(
    () => getAssetDuplicates(admin),
    (groups) => (groups[0]?.assets.length ?? 0) >= 2,
    'the copy grouped with its original',
  );
  const members = (group?.assets ?? []).map((asset) => asset.id).sort();
  console.log(`  Duplicates: a group of ${members.length}, suggested to keep ${group?.suggestedKeepAssetIds.join()}`);
  if (members.join() !== [originalId, copyId].sort().join())
    run.problems.push(`the duplicate group holds ${members.join()}, not the photo and its copy`);
  if (group?.suggestedKeepAssetIds.join() !== originalId)
    run.problems.push(`the group suggests keeping ${group?.suggestedKeepAssetIds.join()}, not the original`);

  await page.goto(`${origin}/utilities/duplicates`);
  await decodedImages(page, `/api/assets/${originalId}/thumbnail`);
  await decodedImages(page, `/api/assets/${copyId}/thumbnail`);
  await screenshot(page, 'v3-ml-4-duplicates');
  const resolved = page.waitForResponse((reply) => new URL(reply.url()).pathname === '/api/duplicates/resolve');
  await page.getByRole('button', { name: 'Trash 1' }).click();
  const reply = await resolved;
  const asked = reply.request().postDataJSON() as unknown;
  console.log(`    "Trash 1": the app asked ${JSON.stringify(asked)}; answered ${reply.status()} ${await reply.text()}`);
  if (reply.status() !== 200) run.problems.push(`POST /api/duplicates/resolve answered ${reply.status()}`);
  await until(
    () => getAssetDuplicates(admin),
    (groups) => groups.length === 0,
    'the group resolved',
  );
  const [kept, trashed] = [await getAssetInfo({ id: originalId }, admin), await getAssetInfo({ id: copyId }, admin)];
  if (kept.isTrashed || kept.duplicateId)
    run.problems.push(`the kept photo is trashed (${kept.isTrashed}) or still in a group (${kept.duplicateId})`);
  if (!trashed.isTrashed) run.problems.push('the copy is not in the trash');
  await page.waitForLoadState('networkidle');
  await screenshot(page, 'v3-ml-5-duplicates-resolved');
};

/**
 * Administration → Job Queues: the machine-learning queues as the features have them (enabled),
 * "Missing" for smart search and duplicate detection and "All" for OCR, as an admin presses them;
 * OCR's "All" reads every photo again, so the text photo's lines come back with new ids.
 */
const queues = async (run: RunV3, page: Page, textId: string): Promise<void> => {
  const { origin, admin, screenshot } = run;
  const before = (await getAssetOcr({ id: textId }, admin)).map((line) => line.id);
  await page.goto(`${origin}/admin/queues`);
  // Each queue's card found by its description (the app titles the OCR queue "Ocr").
  for (const [name, title, description, button] of [
    ['smartSearch', 'Smart Search', 'Run machine learning on assets to support smart search', 'Missing'],
    ['duplicateDetection', 'Duplicate Detection', 'Run machine learning on assets to detect similar images', 'Missing'],
    ['ocr', 'OCR', 'Use machine learning to recognize text in images', 'All'],
  ] as const) {
    // The nearest block holding both the description and the queue's buttons.
    const card = page.locator(
      `xpath=//*[starts-with(normalize-space(text()), '${description}')]/ancestor::*[.//button[normalize-space(.)='${button}']][1]`,
    );
    const control = card.getByRole('button', { name: button, exact: true });
    await control.scrollIntoViewIfNeeded();
    if (await control.isDisabled()) run.problems.push(`the ${title} queue's ${button} is disabled (its feature off)`);
    const replied = page.waitForResponse(
      (reply) => reply.request().method() === 'PUT' && new URL(reply.url()).pathname.endsWith(`/${name}`),
    );
    await control.click();
    const reply = await replied;
    console.log(
      `    ${title} → ${button}: ${reply.request().method()} ${new URL(reply.url()).pathname} ${JSON.stringify(reply.request().postDataJSON())} answered ${reply.status()}`,
    );
    if (reply.status() >= 300) run.problems.push(`${title}'s ${button} answered ${reply.status()}`);
  }
  await screenshot(page, 'v3-ml-6-queues');
  const after = await until(
    () => getAssetOcr({ id: textId }, admin),
    (lines) => lines.length > 0 && lines.every((line) => !before.includes(line.id)),
    "OCR's All read the text photo again",
  );
  console.log(`    OCR's All: the text photo read again (${after.map((line) => JSON.stringify(line.text)).join(', ')}, new line ids)`);
};

export const runMl = async (run: RunV3, backend: MlBackend): Promise<void> => {
  const { origin, admin, screenshot, decodedImages } = run;
  await updateAdminOnboarding({ adminOnboardingUpdateDto: { isOnboarded: true } }, admin);
  await setUserOnboarding({ onboardingDto: { isOnboarded: true } }, admin);
  let ml: MlService | undefined;
  let text: TextImage;
  try {
    if (backend === 'stand-in') {
      ml = await startMlService();
      ml.setOcr([]);
      const config = await getConfig(admin);
      await updateConfig({ adminConfigDto: { ...config, machineLearning: { ...config.machineLearning, urls: [ml.url] } } }, admin);
    }
    const features = await getServerFeatures(admin);
    console.log(`  ML (${backend}): features smartSearch ${features.smartSearch}, ocr ${features.ocr}`);
    if (!features.smartSearch || !features.ocr) throw new Error(`smart search or OCR is off: ${JSON.stringify(features)}`);

    const photos = {
      red: await sdkUpload(
        admin,
        makeJpeg({ width: 640, height: 480, color: [230, 20, 20], dateTimeOriginal: '2024:06:01 10:00:00' }),
        'red.jpg',
      ),
      green: await sdkUpload(
        admin,
        makeJpeg({ width: 640, height: 480, color: [20, 200, 40], dateTimeOriginal: '2024:06:02 10:00:00' }),
        'green.jpg',
      ),
      blue: await sdkUpload(
        admin,
        makeJpeg({ width: 640, height: 480, color: [20, 40, 220], dateTimeOriginal: '2024:06:03 10:00:00' }),
        'blue.jpg',
      ),
    };
    // The photos are embedded after their previews: all three found by a query.
    await until(
      () => searchSmart({ smartSearchDto: { query: 'red' } }, admin),
      (found) => found.assets.items.length >= 3,
      'the colour photos embedded',
    );
    // Bold dark blue on white (a photo-like background's grain would make the screenshots megabytes).
    text = await makeTextImage({
      width: 800,
      height: 540,
      background: 'white',
      color: [30, 60, 150],
      font: 'bold',
      texts: [{ text: 'SUMMER HOLIDAY', x: 90, y: 300, size: 60 }],
    });
    // The stand-in's OCR answers, for the text photo only, the lines where the text was drawn.
    ml?.setOcr(
      text.texts.map(({ text: words, box }) => ({
        text: words,
        box: [box.x1, box.y1, box.x2, box.y1, box.x2, box.y2, box.x1, box.y2],
        boxScore: 0.98,
        textScore: 0.97,
      })),
    );
    const textId = await sdkUpload(admin, text.jpeg, 'holiday.jpg');
    const lines = await until(
      () => getAssetOcr({ id: textId }, admin),
      (found) => found.length > 0,
      'the text photo read',
    );
    console.log(`  ML: the text photo's OCR: ${lines.map((line) => JSON.stringify(line.text)).join(', ')}`);
    const word = 'holiday';
    if (!lines.some((line) => line.text.toLowerCase().includes(word))) throw new Error(`the OCR of the text photo has no "${word}"`);
    await until(
      () => searchSmart({ smartSearchDto: { query: 'red' } }, admin),
      (found) => found.assets.items.length >= 4,
      'the text photo embedded',
    );

    const { page } = await run.open('ml');
    const signIn = await page.request.post(`${origin}/api/auth/login`, { data: { email: run.email, password: run.password } });
    if (signIn.status() !== 201) throw new Error(`the login answered ${signIn.status()}`);
    await page.goto(`${origin}/photos`);
    await decodedImages(page, '/api/assets/', 4);

    // Smart search: the search bar's default type ("Context"), "red" → the red photo first.
    for (const colour of ['red', 'blue'] as const) {
      if (colour !== 'red') await page.goto(`${origin}/photos`);
      const { ids, asked, answered } = await searchFromBar(page, colour, '/api/search/smart');
      await decodedImages(page, `/api/assets/${photos[colour]}/thumbnail`);
      if (ids.join() !== answered.join())
        run.problems.push(`smart search "${colour}": the page shows ${ids.join()}, the server answered ${answered.join()}`);
      console.log(
        `    "${colour}": the app asked ${JSON.stringify(asked)}; results ${ids.map((id) => Object.entries(photos).find(([, value]) => value === id)?.[0] ?? (id === textId ? 'text' : id)).join(', ')}`,
      );
      if (ids[0] !== photos[colour])
        run.problems.push(`smart search "${colour}" in the app: the first result is ${ids[0]}, not the ${colour} photo ${photos[colour]}`);
      if (ids.length !== 4) run.problems.push(`smart search "${colour}" in the app shows ${ids.length} results, not 4`);
      if (colour === 'red') await screenshot(page, 'v3-ml-1-smart-search');
    }

    // OCR: the search type "OCR" in the bar's menu, then a word of the text.
    await page.goto(`${origin}/photos`);
    await page.getByPlaceholder('Search your photos').click();
    await page.locator('button[aria-haspopup="listbox"]', { hasText: 'Context' }).click();
    await page.getByRole('button', { name: 'OCR', exact: true }).click();
    const { ids: found, asked, answered } = await searchFromBar(page, word, '/api/search/metadata');
    await decodedImages(page, `/api/assets/${textId}/thumbnail`);
    if (found.join() !== answered.join())
      run.problems.push(`OCR search: the page shows ${found.join()}, the server answered ${answered.join()}`);
    console.log(`    OCR "${word}": the app asked ${JSON.stringify(asked)}; ${found.length} result(s)`);
    if (found.length !== 1 || found[0] !== textId)
      run.problems.push(`OCR search "${word}" in the app shows ${found.join(', ')}, not only the text photo ${textId}`);
    await screenshot(page, 'v3-ml-2-ocr-search');

    // The viewer's "Text recognition" overlay: its boxes carry the text.
    await page.goto(`${origin}/photos/${textId}`);
    await page.locator('#immich-asset-viewer').waitFor();
    await decodedImages(page, `/api/assets/${textId}/thumbnail?size=preview`);
    await page.getByRole('button', { name: 'Text recognition' }).click();
    const shown = lines[0]?.text ?? '';
    await page.getByText(shown, { exact: true }).first().waitFor({ state: 'attached', timeout: 15_000 });
    console.log(`    the viewer's text overlay shows ${JSON.stringify(shown)}`);
    await screenshot(page, 'v3-ml-3-ocr-overlay');

    await duplicates(run, page, text.jpeg, textId);
    await queues(run, page, textId);
  } finally {
    await ml?.close();
  }
};
