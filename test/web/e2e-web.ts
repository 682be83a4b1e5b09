/**
 * `npm run e2e:web -- [<Immich web build>]`: Immich's own released web app (the `www` folder of
 * its server image, supplied by the user) against this API, in a real browser, by hand (CI has no
 * build of Immich's; docs/web-app.md). A v3 build (its `_app/version.json` says so) gets its own
 * run, test/web/e2e-web-v3.ts; what follows describes v1.100.0's.
 *
 * Starts `npm start`'s server (infra/local/main.ts) on a free port with a fresh DATA_DIR and the
 * build as WEB_DIR, gives it a library through @immich/sdk (an admin, photos with named face
 * regions, an album and its shared link), then drives headless Chromium (test/support/chromium.ts,
 * through playwright-core): the login form, the timeline with its thumbnails, a photo, a person, an album,
 * an upload through the app's own Upload button (shown live, through the realtime socket), and the
 * shared link as a visitor. It fails on any console error, page error, failed request or `/api`
 * answer of 400 or more; each page's screenshot is written to docs/web-app/.
 *
 * `--oauth` (a v3 build only): only the OAuth sign-in through the app's button, against a real
 * OpenID provider on loopback (test/web/e2e-web-oauth.ts), which the v3 run also ends with.
 *
 * `--video` (a v3 build only): only the phone videos in the app's viewer (an HEVC HLG clip and a
 * motion photo with an HEVC video, once transcoded: test/web/e2e-web-video.ts), which the v3 run
 * also goes through.
 *
 * `--ml` (a v3 build only): only smart search and OCR in the app, against an Immich ML stand-in set
 * as `machineLearning.urls`; `--ml-local` the same with no ML service, on the local CLIP model
 * folder the tests make and the PP-OCR engine (test/web/e2e-web-ml.ts).
 *
 * `--photos <folder>` (a v3 build only): instead of the seeded library, a folder of real photos
 * uploaded by @immich/cli and the app, then issue 48's pages and actions (test/web/e2e-web-real.ts);
 * its screenshots go to a temporary folder (they show the folder's photos, which are not ours).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  addAssetsToAlbum,
  createAlbum,
  createSharedLink,
  getAllPeople,
  getAssetInfo,
  getConfig,
  SharedLinkType,
  setAdminOnboarding,
  updateConfig,
} from '@immich/sdk';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { isV3WebBuild } from '#infra/local/web-server.ts';
import { webBuildDir } from '#infra/web-app.ts';
import { launchChromium } from '../support/chromium.ts';
import { makeJpeg } from '../support/photos.ts';
import { adminWithApiKey, type SdkUser } from '../support/sdk.ts';
import { type MlBackend, mlServerEnv, runMl } from './e2e-web-ml.ts';
import { runOAuth } from './e2e-web-oauth.ts';
import { runReal } from './e2e-web-real.ts';
import { runV3 } from './e2e-web-v3.ts';
import { runVideo } from './e2e-web-video.ts';
import { detectedPerson, offlineMapStyle, uploadPeoplePhotos, uploadSeedPhotos } from './seed-photos.ts';

const root = join(import.meta.dirname, '..', '..');
const { positionals, values: flags } = parseArgs({
  allowPositionals: true,
  options: {
    deployed: { type: 'boolean', default: false },
    photos: { type: 'string' },
    oauth: { type: 'boolean', default: false },
    video: { type: 'boolean', default: false },
    ml: { type: 'boolean', default: false },
    'ml-local': { type: 'boolean', default: false },
  },
});
const buildDir = resolve(positionals[0] ?? join(root, webBuildDir));
/**
 * `--deployed`: against `npm run start:deployed` (the synthesized stack: bundles, IAM, originals in
 * an S3-compatible server, so every image and the viewer's file are presigned redirects, read with
 * the bucket's CORS rule), with its realtime socket served as the WebSocket API the template
 * defines (docs/web-app.md, "Realtime"): an upload shows live there too.
 */
const deployed = flags.deployed ?? false;
/** `--photos <folder>`: the run with real photos (test/web/e2e-web-real.ts), for a v3 build. */
const photos = flags.photos === undefined ? undefined : resolve(flags.photos);
/** `--oauth`: the OAuth sign-in alone (test/web/e2e-web-oauth.ts), for a v3 build. */
const oauthOnly = flags.oauth ?? false;
/** `--video`: the phone videos in the viewer alone (test/web/e2e-web-video.ts), for a v3 build. */
const videoOnly = flags.video ?? false;
/** `--ml` / `--ml-local`: smart search and OCR in the app alone (test/web/e2e-web-ml.ts), for a v3 build. */
const mlOnly: MlBackend | undefined = flags['ml-local'] ? 'local' : flags.ml ? 'stand-in' : undefined;
// The documentation's screenshots are the local server's seeded run; the deployed form's and the
// real photos' go to a temporary folder (a screenshot of third-party photos is not committed).
const shots = photos
  ? join(tmpdir(), deployed ? 'e2e-web-real-deployed' : 'e2e-web-real')
  : oauthOnly
    ? join(tmpdir(), 'e2e-web-oauth')
    : videoOnly
      ? join(tmpdir(), 'e2e-web-video')
      : mlOnly
        ? deployed
          ? join(tmpdir(), `e2e-web-ml-${mlOnly}-deployed`)
          : mlOnly === 'local'
            ? join(tmpdir(), 'e2e-web-ml-local')
            : join(root, 'docs', 'web-app')
        : deployed
          ? join(tmpdir(), 'e2e-web-deployed')
          : join(root, 'docs', 'web-app');
/**
 * Nothing the server does is expected to fail: the socket is served on both forms. One request of
 * Immich's v3 app is its own: its face editor shows an unassigned face's placeholder from
 * `/src/lib/assets/no-thumbnail.png`, a path of its source tree that no build has. Immich's server
 * answers any missing path with the app's page (its SPA fallback; the image then shows nothing),
 * this one with 404 (docs/web-app.md), which Chromium logs.
 */
const expectedError = (_text: string, url: string): boolean =>
  new URL(url || 'about:blank').pathname === '/src/lib/assets/no-thumbnail.png';
const email = 'admin@example.com';
const password = 'a-long-password';

/** What the page's code reads of an image (this project's TypeScript has no DOM library). */
interface ImageElement {
  naturalWidth: number;
  complete: boolean;
}

const freePort = (): Promise<number> =>
  new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });

/** `npm start` (or `npm run start:deployed`) itself, on a fresh data folder; resolves once it listens. */
const startServer = async (port: number, dataDir: string): Promise<ChildProcess> => {
  const child = spawn(process.execPath, [join(root, 'infra', 'local', 'main.ts'), ...(deployed ? ['--deployed'] : [])], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, WEB_DIR: buildDir, ...(mlOnly ? mlServerEnv(mlOnly) : {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((ready, fail) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('listening on')) ready();
    });
    child.once('exit', (code) => fail(new Error(`the server stopped (exit ${code}) before listening:\n${out}`)));
  });
  return child;
};

/** Everything the browser reports that a working page never does. */
const watch = (page: Page, problems: string[], label: string): void => {
  page.on('console', (message) => {
    if (message.type() === 'error' && !expectedError(message.text(), message.location().url))
      problems.push(`${label}: console error at ${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${label}: page error at ${page.url()}: ${error.stack ?? error.message}`));
  page.on('requestfailed', (request) => {
    // A request the page itself dropped when it went to another page (ERR_ABORTED) is no failure
    // of the server's; every answer the server gave is still checked below.
    if (request.failure()?.errorText === 'net::ERR_ABORTED') return;
    problems.push(`${label}: request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText})`);
  });
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/api/') && response.status() >= 400)
      problems.push(`${label}: ${response.request().method()} ${response.url()} answered ${response.status()}`);
  });
};

/** Waits until at least `count` images whose source contains `part` have decoded. */
const decodedImages = async (page: Page, part: string, count = 1): Promise<number> => {
  const selector = part === 'blob:' ? 'img[src^="blob:"]' : `img[src*="${part}"]`;
  await page.waitForFunction(
    ({ selector, count }) => {
      const images = [
        ...(globalThis as unknown as { document: { querySelectorAll(s: string): ImageElement[] } }).document.querySelectorAll(selector),
      ];
      return images.filter((image) => image.complete && image.naturalWidth > 0).length >= count;
    },
    { selector, count },
    { timeout: 30_000 },
  );
  return page.locator(selector).count();
};

const screenshot = async (page: Page, name: string): Promise<void> => {
  // Let the page's requests end (a navigation would abort them), transitions and the last
  // thumbnails settle, then the page as a person sees it.
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(750);
  await page.screenshot({ path: join(shots, `${name}.png`) });
  console.log(`  ✓ ${name}`);
};

/** The library the pages show: photos on three days, two of them with Ada's face, an album, its link. */
const seed = async (user: SdkUser) => {
  const ids = await uploadSeedPhotos(user, 6, 'photo-', 'e2e-web');
  await uploadPeoplePhotos(user, 'photo-');
  const album = await createAlbum({ createAlbumDto: { albumName: 'Summer', description: 'Made by npm run e2e:web' } }, user);
  await addAssetsToAlbum({ id: album.id, bulkIdsDto: { ids: ids.slice(0, 4) } }, user);
  const link = await createSharedLink({ sharedLinkCreateDto: { type: SharedLinkType.Album, albumId: album.id, showMetadata: true } }, user);
  // The previews and places are made in the background: wait for the last upload's, and for Ada's face.
  for (let tries = 0; ; tries++) {
    const last = await getAssetInfo({ id: ids.at(-1) ?? '' }, user);
    const people = await getAllPeople({ withHidden: false }, user);
    const ada = people.people.find((person) => person.name === 'Ada Lovelace');
    const found = detectedPerson(people);
    if (last.thumbhash && last.exifInfo?.city && ada?.thumbnailPath && found)
      return { ids, albumId: album.id, key: link.key, personId: ada.id, detectedId: found.id };
    if (tries > 100) throw new Error('the seeded photos got no previews');
    await new Promise((done) => setTimeout(done, 200));
  }
};

const main = async (): Promise<void> => {
  if (!existsSync(join(buildDir, 'index.html')))
    throw new Error(`No web build at ${buildDir}: give the www folder of Immich's server image (docs/web-app.md, "The build")`);
  if (photos && !isV3WebBuild(buildDir)) throw new Error('--photos drives the v3 web app: give a v3 build');
  if (oauthOnly && !isV3WebBuild(buildDir)) throw new Error('--oauth drives the v3 web app: give a v3 build');
  if (videoOnly && !isV3WebBuild(buildDir)) throw new Error('--video drives the v3 web app: give a v3 build');
  if (mlOnly && !isV3WebBuild(buildDir)) throw new Error('--ml drives the v3 web app: give a v3 build');
  if (photos && !existsSync(photos)) throw new Error(`No folder of photos at ${photos}`);
  mkdirSync(shots, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-web-'));
  // `PORT` when given (a machine where ports are shared out), else any free one.
  const port = Number(process.env.PORT) || (await freePort());
  const origin = `http://localhost:${port}`;
  const server = await startServer(port, dataDir);
  let browser: Browser | undefined;
  const pages: Page[] = [];
  const problems: string[] = [];
  /** Immich's v1.100 web app: login form → timeline → photo → person → album → upload → shared link. */
  const runV1 = async (admin: SdkUser, open: (label: string) => Promise<{ context: BrowserContext; page: Page }>): Promise<void> => {
    await setAdminOnboarding(admin);
    // The map's style, served by this server from the settings' URL: one the browser needs no network for.
    const config = await getConfig(admin);
    await updateConfig(
      { systemConfigDto: { ...config, map: { enabled: true, lightStyle: offlineMapStyle('light'), darkStyle: offlineMapStyle('dark') } } },
      admin,
    );
    const library = await seed(admin);
    console.log(`Seeded ${library.ids.length} photos, an album and its shared link; opening ${origin}/ in Chromium`);

    // The owner: login form → timeline → photo → person → album → upload.
    const { page } = await open('owner');
    await page.goto(`${origin}/`);
    await page.waitForURL('**/auth/login');
    await page.locator('#email').waitFor();
    await screenshot(page, '1-login');
    await page.fill('#email', email);
    await page.fill('#password', password);
    await page.click('button[type=submit]');
    await page.waitForURL('**/photos');
    const thumbnails = await decodedImages(page, '/api/asset/thumbnail/', library.ids.length);
    console.log(`    timeline: ${thumbnails} thumbnails decoded`);
    await screenshot(page, '2-timeline');

    // The viewer: a click on the newest photo; it fetches the preview (`/api/asset/file/…?isWeb=true`)
    // and shows it as a blob: image.
    const newest = library.ids.at(-1) ?? '';
    await page.locator(`img[src*="/api/asset/thumbnail/${newest}"]`).first().click();
    await page.locator('#immich-asset-viewer').waitFor();
    await decodedImages(page, 'blob:');
    await screenshot(page, '3-photo');
    await page.keyboard.press('Escape');
    await page.locator('#immich-asset-viewer').waitFor({ state: 'detached' });

    // People, then Ada's page from there, as a person gets to it (the person page reads where it
    // was opened from; Immich's own page fails when it is the first page loaded).
    // Ada (a face region) and the woman the media function found in three photos (docs/faces.md).
    await page.goto(`${origin}/people`);
    await decodedImages(page, `/api/person/${library.personId}/thumbnail`);
    await decodedImages(page, `/api/person/${library.detectedId}/thumbnail`);
    await screenshot(page, '11-people');
    await page.locator(`a[href*="/people/${library.personId}"]`).first().click();
    await page.waitForURL(`**/people/${library.personId}**`);
    await page.getByText('Ada Lovelace').first().waitFor();
    await decodedImages(page, '/api/asset/thumbnail/', 2);
    await screenshot(page, '4-person');

    await page.goto(`${origin}/albums/${library.albumId}`);
    await page.getByText(/4 items/).waitFor();
    await decodedImages(page, '/api/asset/thumbnail/', 2);
    await screenshot(page, '5-album');

    // The app's own Upload button and file chooser; the new photo reaches the timeline live.
    await page.goto(`${origin}/photos`);
    await decodedImages(page, '/api/asset/thumbnail/', library.ids.length);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload' }).first().click();
    const uploaded = page.waitForResponse(
      (response) => response.url().endsWith('/api/asset/upload') && response.request().method() === 'POST',
    );
    await (await chooser).setFiles({
      name: 'from-the-browser.jpg',
      mimeType: 'image/jpeg',
      buffer: makeJpeg({ width: 800, height: 600, color: [20, 160, 170], dateTimeOriginal: '2024:04:01 09:00:00' }),
    });
    const response = await uploaded;
    const { id } = (await response.json()) as { id: string };
    if (response.status() !== 201) problems.push(`upload through the app answered ${response.status()}`);
    // The socket tells the app once the previews exist (`on_upload_success`): no reload, on either form.
    await decodedImages(page, `/api/asset/thumbnail/${id}`);
    await screenshot(page, '6-upload');

    // Places (docs/places.md): Explore's places row (a city with five photos), the places page, the
    // map with its markers (the style has no tiles: the runs have no network).
    await page.goto(`${origin}/explore`);
    await page.getByText('Ralston').first().waitFor();
    await decodedImages(page, '/api/asset/thumbnail/', 1);
    await screenshot(page, '8-explore');
    await page.goto(`${origin}/places`);
    await page.getByText('Ralston').first().waitFor();
    await decodedImages(page, '/api/asset/thumbnail/', 1);
    await screenshot(page, '9-places');
    const markers = page.waitForResponse((reply) => reply.url().includes('/api/asset/map-marker') && reply.status() === 200);
    await page.goto(`${origin}/map`);
    const marked = (await (await markers).json()) as unknown[];
    if (marked.length < library.ids.length) problems.push(`the map has ${marked.length} markers for ${library.ids.length} photos`);
    await page.locator('canvas').first().waitFor();
    await screenshot(page, '10-map');

    // A visitor with the album's shared link, in a browser with no account.
    const visitor = await open('visitor');
    const shareResponse = await visitor.page.goto(`${origin}/share/${library.key}`);
    await visitor.page.getByText('Made by npm run e2e:web').waitFor();
    await decodedImages(visitor.page, '/api/asset/thumbnail/', 2);
    // The page as served names the link for a chat's preview (docs/web-app.md, "Share pages"; the
    // app adds tags of its own in the browser, which a chat's crawler never runs), its picture served.
    const served = (await shareResponse?.text()) ?? '';
    const og = (name: string) => served.match(new RegExp(`<meta property="og:${name}" content="([^"]*)"`))?.[1];
    if (og('title') !== 'Summer') problems.push(`the share page as served has og:title ${og('title')}, not the album's name`);
    const preview = await visitor.page.request.get(new URL(og('image')?.replaceAll('&amp;', '&') ?? '/none', origin).href);
    if (!preview.ok() || !preview.headers()['content-type']?.startsWith('image/'))
      problems.push(`the share page's og:image answered ${preview.status()} ${preview.headers()['content-type']}`);
    await screenshot(visitor.page, '7-shared-link');
  };
  try {
    const admin = await adminWithApiKey(`${origin}/api`, email, password);
    browser = await launchChromium({ webgl: true });
    const open = async (label: string): Promise<{ context: BrowserContext; page: Page }> => {
      // A locale of its own: with LANG=C, Chromium's is `en-US@posix`, which the app sends as smart
      // search's language and which Intl.ListFormat (the v3 duplicates page) refuses.
      const context = await browser!.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
      const page = await context.newPage();
      watch(page, problems, label);
      pages.push(page);
      return { context, page };
    };
    // Immich's current web app (v3.x) has its own run (test/web/e2e-web-v3.ts), v1.100's the one below.
    const run = { origin, admin, email, password, open, decodedImages, screenshot, problems };
    if (photos) await runReal({ ...run, photos });
    else if (oauthOnly) await runOAuth(run);
    else if (videoOnly) await runVideo(run);
    else if (mlOnly) await runMl(run, mlOnly);
    else if (isV3WebBuild(buildDir)) {
      await runV3(run);
      await runVideo(run);
      await runOAuth(run);
    } else await runV1(admin, open);
  } catch (error) {
    problems.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
    // What the browser showed when it stopped, to see why.
    for (const [index, page] of pages.entries()) {
      const path = join(tmpdir(), `e2e-web-failure-${index}.png`);
      await page.screenshot({ path }).catch(() => undefined);
      problems.push(`the page at ${page.url()} when it stopped: ${path}`);
    }
  } finally {
    await browser?.close();
    server.kill('SIGINT');
    await new Promise((done) => server.once('exit', done));
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (problems.length > 0) {
    console.error(`\n${problems.length} problem(s):\n${problems.map((line) => `  ✗ ${line}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`\nEvery page rendered with no console error and no failed /api call; screenshots in ${shots}`);
};

await main();
