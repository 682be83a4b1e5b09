/**
 * Phone videos in Immich's v3 web app, for `npm run e2e:web` (after the v3 pages, or alone with
 * `--video`): issue 52's acceptance in the real app. An iPhone-like HEVC 10-bit HLG clip and an
 * Android motion photo whose video part is HEVC (test/support/videos.ts) are uploaded through
 * @immich/sdk; the run waits until each one's playback answers `video/mp4` of H.264 (the transcode
 * job's encoded version, docs/media.md), then opens each in the app's asset viewer (`/photos/<id>`): the
 * clip plays in the viewer's <video>, the motion photo's after the viewer's "Play Motion Photo"
 * button, as a person plays it. Each <video> must reach HAVE_ENOUGH_DATA (readyState 4) with a
 * picture size and a frame drawn with content: its pixels, drawn on a canvas, vary. Deployed, the
 * app's <video> plays a presigned S3 URL of another origin without `crossorigin`, so its frame
 * cannot be read back from a canvas (the canvas is tainted); the frame is then read from a
 * screenshot of the middle of the element (away from the controls), as the browser composited it.
 */
import { getAssetInfo, setUserOnboarding, updateAdminOnboarding } from '@immich/sdk-v3';
import type { Page } from 'playwright-core';
import { makeJpeg } from '../support/photos.ts';
import { sdkUpload } from '../support/sdk.ts';
import { makeClip, makeMotionPhoto } from '../support/videos.ts';
import type { RunV3 } from './e2e-web-v3.ts';

/** What the page tells of the viewer's video. */
interface Played {
  readyState: number;
  width: number;
  height: number;
  /** The luma variance of the frame drawn on a canvas; undefined when the canvas is tainted. */
  variance?: number;
  tainted?: boolean;
  error?: string;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * Waits until the asset's playback answers `video/mp4` whose sample entry is H.264's (`avc1`, in
 * the `moov` box the encode puts first): the transcode job's encoded version. The type alone does
 * not say it: the motion photo's original is an MP4 too, of HEVC (`hvc1`), which Chromium cannot
 * play. What the playback last answered.
 */
const encodedPlayback = async ({ origin, admin }: RunV3, id: string): Promise<{ type: string; h264: boolean }> => {
  let type = '';
  let h264 = false;
  for (let tries = 0; tries < 600 && !(type === 'video/mp4' && h264); tries++) {
    if (tries > 0) await sleep(500);
    const answer = await fetch(`${origin}/api/assets/${id}/video/playback`, { headers: { ...admin.headers, Range: 'bytes=0-65535' } });
    const head = Buffer.from(await answer.arrayBuffer());
    type = answer.headers.get('content-type') ?? '';
    h264 = head.includes('avc1');
  }
  return { type, h264 };
};

/**
 * In the page: the viewer's <video> (whose source names `id`) reaches HAVE_ENOUGH_DATA; then its
 * frame, drawn small on a canvas, has varying pixels (drawn again each animation frame until it does,
 * bounded). The script is a string: this project's TypeScript has no DOM library.
 */
const inPage = (id: string): string => `(async () => {
  const found = () => [...document.querySelectorAll('#immich-asset-viewer video')].find((video) => (video.currentSrc || video.src || '').includes(${JSON.stringify(id)}));
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  let video = found();
  for (let tries = 0; tries < 3000 && !(video && video.readyState >= 4 && video.videoWidth > 0); tries++) {
    if (video && video.error) return { readyState: video.readyState, width: 0, height: 0, error: 'media error ' + video.error.code };
    await new Promise((done) => setTimeout(done, 20));
    video = found();
  }
  if (!video) return { readyState: -1, width: 0, height: 0, error: 'no <video> playing the asset in the viewer' };
  const played = { readyState: video.readyState, width: video.videoWidth, height: video.videoHeight };
  const canvas = document.createElement('canvas');
  canvas.width = 160;
  canvas.height = 90;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  const variance = () => {
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
    const luma = [];
    for (let index = 0; index < data.length; index += 4) luma.push((data[index] + data[index + 1] + data[index + 2]) / 3);
    const mean = luma.reduce((sum, value) => sum + value, 0) / luma.length;
    return luma.reduce((sum, value) => sum + (value - mean) ** 2, 0) / luma.length;
  };
  try {
    let value = variance();
    for (let tries = 0; tries < 600 && !(value > 0); tries++) {
      await frame();
      value = variance();
    }
    return { ...played, variance: value };
  } catch (error) {
    if (error && error.name === 'SecurityError') return { ...played, tainted: true };
    return { ...played, error: String(error) };
  }
})()`;

/** The luma variance of a PNG (a screenshot), computed in the page from a data: URL (which taints nothing). */
const screenshotVariance = (page: Page, png: Buffer): Promise<number> =>
  page.evaluate(`(async () => {
    const image = new Image();
    image.src = 'data:image/png;base64,${png.toString('base64')}';
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    context.drawImage(image, 0, 0);
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
    const luma = [];
    for (let index = 0; index < data.length; index += 4) luma.push((data[index] + data[index + 1] + data[index + 2]) / 3);
    const mean = luma.reduce((sum, value) => sum + value, 0) / luma.length;
    return luma.reduce((sum, value) => sum + (value - mean) ** 2, 0) / luma.length;
  })()`);

/** Checks the viewer's video of `id` plays with a picture; a line for the log. */
const checkPlays = async (
  run: RunV3,
  page: Page,
  id: string,
  label: string,
  expected: { width: number; height: number },
): Promise<void> => {
  const played = (await page.evaluate(inPage(id))) as Played;
  let variance = played.variance;
  let how = 'canvas';
  if (played.tainted) {
    // A presigned URL of another origin (deployed): the element as composited on screen.
    // The middle of the picture only: the viewer's controls and bars overlay its edges, and they vary on any frame.
    const box = await page.locator('#immich-asset-viewer video').first().boundingBox();
    if (!box) throw new Error(`${label}: the viewer's <video> has no box on screen`);
    const clip = { x: box.x + box.width / 4, y: box.y + box.height / 4, width: box.width / 2, height: box.height / 2 };
    variance = await screenshotVariance(page, await page.screenshot({ clip }));
    how = 'a screenshot: the canvas is tainted, the video is another origin';
  }
  console.log(
    `    ${label}: readyState ${played.readyState}, ${played.width}×${played.height}, frame variance ${variance?.toFixed(1)} (${how})${played.error ? `, ${played.error}` : ''}`,
  );
  if (played.error) run.problems.push(`${label}: ${played.error}`);
  if (played.readyState !== 4) run.problems.push(`${label}: the viewer's <video> reached readyState ${played.readyState}, not 4`);
  if (played.width !== expected.width || played.height !== expected.height)
    run.problems.push(`${label}: the video is ${played.width}×${played.height}, not ${expected.width}×${expected.height}`);
  // The test pattern's colours: a frame with content varies far more than a flat or black one.
  if (!(variance !== undefined && variance > 100)) run.problems.push(`${label}: no frame with content drawn (luma variance ${variance})`);
};

export const runVideo = async (run: RunV3): Promise<void> => {
  const { origin, admin, screenshot } = run;
  await updateAdminOnboarding({ adminOnboardingUpdateDto: { isOnboarded: true } }, admin);
  await setUserOnboarding({ onboardingDto: { isOnboarded: true } }, admin);
  const clip = makeClip('hevc-hlg');
  const clipId = await sdkUpload(admin, clip.bytes, `iphone-hlg.${clip.extension}`);
  const motion = makeMotionPhoto(
    makeJpeg({ width: 480, height: 270, color: [40, 120, 200], dateTimeOriginal: '2024:05:01 12:00:00' }),
    makeClip('hevc-motion').bytes,
  );
  const photoId = await sdkUpload(admin, motion, 'PXL_motion.jpg');
  // The motion photo's video part becomes its own (hidden) asset once the upload's media job read it.
  let videoId: string | undefined;
  for (let tries = 0; tries < 600 && !videoId; tries++) {
    if (tries > 0) await sleep(500);
    videoId = (await getAssetInfo({ id: photoId }, admin)).livePhotoVideoId ?? undefined;
  }
  if (!videoId) throw new Error('the motion photo got no livePhotoVideoId');
  for (const [label, id] of [
    ['the HEVC HLG clip', clipId],
    ["the motion photo's video", videoId],
  ] as const) {
    const { type, h264 } = await encodedPlayback(run, id);
    console.log(`  Video: ${label}'s playback answers ${type}${h264 ? ', H.264' : ''}`);
    if (type !== 'video/mp4' || !h264)
      throw new Error(`${label}'s playback answers ${type}${h264 ? '' : ' not of H.264'}: no encoded version`);
  }

  const { page } = await run.open('video');
  const signIn = await page.request.post(`${origin}/api/auth/login`, { data: { email: run.email, password: run.password } });
  if (signIn.status() !== 201) throw new Error(`the login answered ${signIn.status()}`);

  // The clip: the viewer plays it (the encoded version: H.264 at the clip's 640×360, tone-mapped).
  await page.goto(`${origin}/photos/${clipId}`);
  await page.locator('#immich-asset-viewer video').waitFor();
  await checkPlays(run, page, clipId, 'the HEVC HLG clip', { width: 640, height: 360 });
  await screenshot(page, 'v3-video-1-hevc-hlg');

  // The motion photo: the photo first, then its video by the viewer's "Play Motion Photo".
  await page.goto(`${origin}/photos/${photoId}`);
  await page.locator('#immich-asset-viewer').waitFor();
  await run.decodedImages(page, `/api/assets/${photoId}/thumbnail?size=preview`);
  const requested = page.waitForResponse((reply) => new URL(reply.url()).pathname === `/api/assets/${videoId}/video/playback`);
  await page.getByRole('button', { name: 'Play Motion Photo' }).click();
  const reply = await requested;
  console.log(`    the motion photo's video: the app's request answered ${reply.status()} ${reply.headers()['content-type'] ?? ''}`);
  await checkPlays(run, page, videoId, "the motion photo's video", { width: 480, height: 270 });
  await screenshot(page, 'v3-video-2-motion-photo');
};
