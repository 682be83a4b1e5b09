/**
 * A real browser shows what the API serves: headless Chromium (the npm registry's, or
 * CHROMIUM_PATH: test/support/chromium.ts; driven by playwright-core) signs in through POST /api/auth/login (the session cookie Immich's web app
 * uses), opens a page of the API's own origin with thumbnails, previews, a person's thumbnail and
 * a video (its poster, and the original streamed with ranges), and every image must decode
 * (`naturalWidth` > 0) and the video must load its metadata. Deployed, every one of those URLs is
 * a 302 to a presigned S3 URL, which the browser follows with the cookie left behind.
 * The screenshot is saved as `.data/test-output/browser-<target>.png`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { getAllPeople, getAssetInfo } from '@immich/sdk';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.ts';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { makeJpeg } from '../support/photos.ts';
import { adminWithApiKey, type SdkUser, sdkUpload } from '../support/sdk.ts';
import { target, useServer } from '../support/server.ts';
import { hangGuard } from '../support/timeouts.ts';
import { makeClip, makeVideo } from '../support/videos.ts';

/** What the page's code reads of its elements (this project's TypeScript has no DOM library). */
interface ImageElement {
  getAttribute(name: string): string | null;
  naturalWidth: number;
}
interface VideoElement {
  readyState: number;
  videoWidth: number;
  duration: number;
  addEventListener(type: string, listener: () => void, options: { once: boolean }): void;
}
/** What the playback check reads of the page (set by its script). */
interface PlaybackWindow {
  played: Promise<{
    readyState: number;
    width: number;
    height: number;
    variance: number;
    seekedTo: number;
    seekVariance: number;
    seekDifference: number;
    error?: number;
  }>;
}

describe('a real browser shows the thumbnails, previews and video the API serves', () => {
  const server = useServer();
  let user: SdkUser;
  let browser: Browser;
  const email = 'browser@immich.cloud';

  beforeAll(async () => {
    user = await adminWithApiKey(server.baseUrl, email);
    // Not about OCR or duplicates (the person's thumbnail comes from the photo's face regions).
    await turnOffMlTasks(user, ['ocr', 'duplicateDetection']);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  const send = async (data: Buffer, fileName: string) => {
    const id = await sdkUpload(user, data, fileName, 'browser');
    const deadline = Date.now() + hangGuard.wait;
    while (!(await getAssetInfo({ id }, user)).resized && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    return id;
  };

  it('signs in with the cookie and every image decodes, the video’s poster and metadata load', async () => {
    const photos = await Promise.all(
      [
        [200, 40, 40],
        [40, 160, 60],
        [40, 80, 200],
      ].map((color, index) =>
        send(
          makeJpeg({
            width: 900,
            height: 600,
            color: color as [number, number, number],
            mwgFaces: index === 0 ? [{ name: 'Browser Face', x: 0.4, y: 0.3, w: 0.2, h: 0.3 }] : [],
          }),
          `photo-${index}.jpg`,
        ),
      ),
    );
    const video = await send(makeVideo({ seconds: 2, width: 480, height: 270 }), 'clip.mp4');
    const person = (await getAllPeople({}, user)).people.find((each) => each.name === 'Browser Face');
    expect(person).toBeDefined();

    const context = await browser.newContext({ viewport: { width: 1100, height: 700 } });
    // Sign in as the web app does: the answer sets the session cookie for the API's origin.
    const signIn = await context.request.post(`${server.baseUrl}/auth/login`, { data: { email, password: 'password' } });
    expect(signIn.status()).toBe(201);
    expect((await context.cookies()).map((cookie) => cookie.name)).toContain('immich_access_token');

    // The page is the test's own, at the API's origin (so the cookie goes with every request).
    const page = await context.newPage();
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.url()}: ${response.status()}`);
    });
    const images = [
      ...photos.map((id) => `/api/asset/thumbnail/${id}`),
      `/api/asset/thumbnail/${photos[1]}?format=JPEG`,
      `/api/asset/file/${photos[2]}?isWeb=true`,
      `/api/person/${person?.id}/thumbnail`,
      `/api/asset/thumbnail/${video}`,
    ];
    const html = `<!doctype html><html><body style="margin:0;background:#222">
      ${images.map((src) => `<img src="${src}" style="height:150px;margin:4px">`).join('\n')}
      <video src="/api/asset/file/${video}" poster="/api/asset/thumbnail/${video}?format=JPEG" preload="metadata" muted style="height:200px"></video>
    </body></html>`;
    // A document of the API's origin (its ping), then the test's markup in it.
    await page.goto(`${server.baseUrl}/server-info/ping`);
    await page.setContent(html, { waitUntil: 'load' });
    const sizes = await page.$$eval('img', (elements: ImageElement[]) =>
      elements.map((image) => ({ src: image.getAttribute('src'), width: image.naturalWidth })),
    );
    expect(sizes).toHaveLength(images.length);
    for (const { src, width } of sizes) expect(width, `${src} (failed: ${failed.join(', ')})`).toBeGreaterThan(0);
    // The original, streamed (locally with ranges; deployed from S3): its size comes from its own container.
    const played = await page.$eval(
      'video',
      (media: VideoElement) =>
        new Promise<{ width: number; duration: number }>((resolve) => {
          const done = () => resolve({ width: media.videoWidth, duration: media.duration });
          if (media.readyState >= 1) done();
          else {
            media.addEventListener('loadedmetadata', done, { once: true });
            media.addEventListener('error', () => resolve({ width: -1, duration: 0 }), { once: true });
          }
        }),
    );
    expect(played.width).toBe(480);
    expect(played.duration).toBeCloseTo(2, 0);
    expect(failed).toEqual([]);

    const output = join(import.meta.dirname, '..', '..', '.data', 'test-output');
    mkdirSync(output, { recursive: true });
    await page.screenshot({ path: join(output, `browser-${target()}.png`) });
    await context.close();
  });

  it('plays a phone’s HEVC HDR clip once it is transcoded, which Chromium could not play as recorded', async () => {
    const clip = makeClip('hevc-hlg');
    const id = await send(clip.bytes, `IMG_0002.${clip.extension}`);
    // The encoded version exists once playback answers it (video/mp4; the original is a MOV).
    const deadline = Date.now() + hangGuard.wait;
    let type = '';
    while (type !== 'video/mp4' && Date.now() < deadline) {
      const answer = await fetch(`${server.baseUrl}/assets/${id}/video/playback`, { headers: { ...user.headers, Range: 'bytes=0-0' } });
      await answer.arrayBuffer();
      type = answer.headers.get('content-type') ?? '';
      if (type !== 'video/mp4') await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(type).toBe('video/mp4');

    const context = await browser.newContext({ viewport: { width: 800, height: 500 } });
    const signIn = await context.request.post(`${server.baseUrl}/auth/login`, { data: { email, password: 'password' } });
    expect(signIn.status()).toBe(201);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/server-info/ping`);
    // Why transcoding matters: this Chromium (no proprietary HEVC decoder, no GPU) plays H.264/AAC, not HEVC.
    const support = await page.evaluate(`({
      hevc: document.createElement('video').canPlayType('video/mp4; codecs="hvc1.2.4.L123.B0"'),
      hev1: document.createElement('video').canPlayType('video/mp4; codecs="hev1.2.4.L123.B0"'),
      h264: document.createElement('video').canPlayType('video/mp4; codecs="avc1.42E01E, mp4a.40.2"'),
    })`);
    expect(support).toEqual({ hevc: '', hev1: '', h264: 'probably' });

    // The playback URL in a <video>: enough data to play (HAVE_ENOUGH_DATA), a frame drawn with
    // content (the test pattern's pixels vary), and a seek into the clip that draws again (to its
    // middle: the clip is a second long). `crossorigin`: deployed, playback redirects to S3, another
    // origin, whose CORS rule (infra/cdk/stack.ts) lets the page read the frame back from the canvas.
    await page.setContent(
      `<!doctype html><html><body style="margin:0;background:#222">
        <video id="v" src="/api/assets/${id}/video/playback" crossorigin="anonymous" muted preload="auto" style="height:360px"></video>
        <canvas id="c" width="160" height="90"></canvas>
        <script>
          const video = document.getElementById('v');
          // The frame on show, drawn small: its pixels' luma.
          const frame = () => {
            const canvas = document.getElementById('c');
            const context = canvas.getContext('2d', { willReadFrequently: true });
            context.drawImage(video, 0, 0, canvas.width, canvas.height);
            const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
            const luma = [];
            for (let index = 0; index < data.length; index += 4) luma.push((data[index] + data[index + 1] + data[index + 2]) / 3);
            return luma;
          };
          const variance = (luma) => {
            const mean = luma.reduce((sum, value) => sum + value, 0) / luma.length;
            return luma.reduce((sum, value) => sum + (value - mean) ** 2, 0) / luma.length;
          };
          const difference = (a, b) => a.reduce((sum, value, index) => sum + Math.abs(value - b[index]), 0) / a.length;
          // A decoded frame reaches the page a few animation frames after the media event that
          // announces it: draw again until it is there (bounded; the assertions say if it never is).
          const until = async (shown) => {
            let luma = frame();
            for (let tries = 0; tries < 600 && !shown(luma); tries++) {
              await new Promise((resolve) => requestAnimationFrame(resolve));
              luma = frame();
            }
            return luma;
          };
          const event = (name) => new Promise((resolve, reject) => {
            video.addEventListener(name, resolve, { once: true });
            video.addEventListener('error', () => reject(new Error('media error ' + video.error?.code)), { once: true });
          });
          window.played = (async () => {
            if (video.readyState < 4) await event('canplaythrough');
            const readyState = video.readyState;
            const first = await until((luma) => variance(luma) > 0);
            const seeked = event('seeked');
            video.currentTime = video.duration / 2;
            await seeked;
            // The test pattern moves: the frame at the seek's time is another picture.
            const later = await until((luma) => difference(luma, first) > 0);
            return {
              readyState, width: video.videoWidth, height: video.videoHeight, variance: variance(first),
              seekedTo: video.currentTime, seekVariance: variance(later), seekDifference: difference(later, first),
            };
          })().catch(() => ({ readyState: video.readyState, width: 0, height: 0, variance: 0, seekedTo: 0, seekVariance: 0, seekDifference: 0, error: video.error?.code ?? -1 }));
        </script>
      </body></html>`,
      { waitUntil: 'load' },
    );
    const played = await page.evaluate(() => (globalThis as unknown as PlaybackWindow).played);
    expect(played).toMatchObject({ readyState: 4, width: 640, height: 360 });
    expect(played.error).toBeUndefined();
    expect(played.variance).toBeGreaterThan(100);
    expect(played.seekedTo).toBeGreaterThan(0.3);
    expect(played.seekVariance).toBeGreaterThan(100);
    expect(played.seekDifference).toBeGreaterThan(1);
    await context.close();
  });
});
