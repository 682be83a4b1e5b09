import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as runAssetJobsV1 } from '#functions/asset/run-asset-jobs.ts';
import { handler as serveFileHandler } from '#functions/asset/serve-file.ts';
import { handler as sendJobCommand } from '#functions/job/send-job-command.ts';
import { handler as transcodeVideo } from '#functions/media/transcode-video.ts';
import { handler as searchAssetsHandler } from '#functions/search/search-assets.ts';
import { handler as getMyUserInfo } from '#functions/user/get-my-user-info.ts';
import { handler as v3PlaybackHandler } from '#functions/v3/asset/play-asset-video.ts';
import { handler as runAssetJobs } from '#functions/v3/asset/run-asset-jobs.ts';
import { handler as getQueue } from '#functions/v3/queue/get-queue.ts';
import * as assetRepo from '#shared/db/asset.repository.ts';
import { encodedVideoKey } from '#shared/domain/media-files.ts';
import { probeVideo } from '#shared/media/transcode.ts';
import { originalsStore } from '#shared/storage/originals.ts';
import { bearer, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, assetInfo, trash } from '../support/library.ts';
import { changeConfig, objectCreated, turnOffMl } from '../support/media.ts';
import { makeJpeg } from '../support/photos.ts';
import { transcodeJobsInProcess } from '../support/transcode.ts';
import { sha1, upload } from '../support/uploads.ts';
import { makeClip, makeMotionPhoto, makeVideo } from '../support/videos.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
// What the media function and the API functions hand the transcode function, recorded; each test runs them (`runHanded`).
const transcode = transcodeJobsInProcess({ run: false });
beforeAll(async () => {
  accounts = await setupAccounts();
  // Not about OCR or duplicates or faces: off, as each photo's cost (test/support/ml-tasks.ts).
  await turnOffMl(accounts.admin.accessToken, ['facialRecognition', 'ocr', 'duplicateDetection']);
  transcode.start();
});
afterAll(() => transcode.stop());

const originals = () => process.env.ORIGINALS_DIR ?? '';
const stored = (key: string) => existsSync(join(originals(), ...key.split('/')));

// An iPhone-like clip: HEVC in QuickTime (not in the default acceptedVideoCodecs), and an H.264 MP4 that needs nothing.
// Each a file of its own (an owner's same file again is a duplicate): `n` sets its width.
const hevcClip = (n: number) => makeVideo({ container: 'mov', width: 320 + 16 * n, height: 240, seconds: 1 });
const h264Clip = () => makeVideo({ container: 'mp4', width: 320, height: 240, seconds: 1 });

/** Uploads a video and runs its media job (the poster), as the bucket's event does: its id and its bytes. */
const uploadVideo = async (token: string, data: Buffer, fileName: string): Promise<string> => {
  const reply = await upload(token, { data, fileName });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const id = reply.body.id as string;
  const { originalPath } = (await assetInfo(token, id)).body;
  expect(await objectCreated(originalPath)).toEqual({ outcomes: { [originalPath]: 'made' } });
  return id;
};

const playback = (token: string, id: string, headers: Record<string, string> = {}) =>
  invoke(v3PlaybackHandler, {
    path: `/api/assets/${id}/video/playback`,
    headers: { ...bearer(token), ...headers },
    pathParameters: { id },
  });
const serveFile = (token: string, id: string, query: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  invoke(serveFileHandler, { path: `/api/asset/file/${id}`, query, headers: { ...bearer(token), ...headers }, pathParameters: { id } });
const usage = async (token: string) =>
  (await invoke(getMyUserInfo, { path: '/api/user/me', headers: bearer(token) })).body.quotaUsageInBytes as number;
const startVideoConversion = (force: boolean) =>
  invoke(sendJobCommand, {
    method: 'PUT',
    path: '/api/jobs/videoConversion',
    headers: bearer(accounts.admin.accessToken),
    pathParameters: { name: 'videoConversion' },
    body: { command: 'start', force },
  });
const videoConversion = async () =>
  (
    await invoke(getQueue, {
      path: '/api/queues/videoConversion',
      headers: bearer(accounts.admin.accessToken),
      pathParameters: { name: 'videoConversion' },
    })
  ).body.statistics as { completed: number; failed: number; active: number };

/** The encoded version's codec and size, read back by ffprobe. */
const probeStored = async (key: string) => {
  const probe = await probeVideo(join(originals(), ...key.split('/')));
  return { codec: probe.video?.codecName, width: probe.video?.width, height: probe.video?.height, pixelFormat: probe.video?.pixelFormat };
};

describe('transcoding (the transcode function, docs/media.md "Transcoding")', () => {
  it('encodes an HEVC upload to H.264 MP4 after its poster, and both generations play it with ranges, video/mp4', async () => {
    const token = accounts.user1.accessToken;
    const before = await videoConversion();
    // An iPhone's: HEVC Main 10, HLG, AAC, in QuickTime.
    const original = makeClip('hevc-hlg').bytes;
    const id = await uploadVideo(token, original, 'IMG_0001.MOV');
    // The poster made, the video is handed on, decided under the settings as they are then.
    expect(transcode.handed).toEqual([{ kind: 'transcode', assetId: id, force: true }]);
    const usageBefore = await usage(token);
    expect(await transcode.runHanded()).toEqual({ [`transcode/${id}`]: 'encoded' });

    const asset = await assetRepo.get(id);
    const key = encodedVideoKey({ id, ownerId: accounts.user1.userId });
    expect(asset?.encodedVideoPath).toBe(key);
    expect(stored(key)).toBe(true);
    expect(await probeStored(key)).toEqual({ codec: 'h264', width: 640, height: 360, pixelFormat: 'yuv420p' });
    const encoded = readFileSync(join(originals(), ...key.split('/')));
    // The jobs page counts it; the storage used does not count the encoded version (as Immich's).
    expect((await videoConversion()).completed).toBe(before.completed + 1);
    expect(await usage(token)).toBe(usageBefore);

    // v3's playback and v1.100's file route (the web app plays from it, isWeb or not) serve it.
    for (const reply of [await playback(token, id), await serveFile(token, id), await serveFile(token, id, { isWeb: 'true' })]) {
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toBe('video/mp4');
      expect(sha1(Buffer.from(reply.body, 'base64'))).toBe(sha1(encoded));
    }
    // Seeking: a Range request answers the part asked for.
    for (const reply of [await playback(token, id, { range: 'bytes=0-99' }), await serveFile(token, id, {}, { range: 'bytes=0-99' })]) {
      expect(reply.status).toBe(206);
      expect(reply.headers['content-range']).toBe(`bytes 0-99/${encoded.length}`);
      expect(Buffer.from(reply.body, 'base64')).toEqual(encoded.subarray(0, 100));
    }
    expect(sha1(encoded)).not.toBe(sha1(original));
    // Search finds it by its encoded version (v1.100's isEncoded and encodedVideoPath).
    const found = await invoke(searchAssetsHandler, { path: '/api/assets', query: { isEncoded: 'true', id }, headers: bearer(token) });
    expect(found.body.map((each: { id: string }) => each.id)).toEqual([id]);
    const byPath = await invoke(searchAssetsHandler, { path: '/api/assets', query: { encodedVideoPath: key }, headers: bearer(token) });
    expect(byPath.body.map((each: { id: string }) => each.id)).toEqual([id]);

    // Another user sees none of it, as before.
    const other = accounts.user2.accessToken;
    for (const reply of [await playback(other, id), await serveFile(other, id)]) {
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ message: 'Not found or no asset.view access' });
    }

    // Deleting it for good deletes its encoded version.
    expect((await trash(token, [id], true)).status).toBe(204);
    expect(stored(key)).toBe(false);
  });

  it('leaves an H.264 MP4 as it is: no encoded version, the original played', async () => {
    const token = accounts.user1.accessToken;
    const original = h264Clip();
    const id = await uploadVideo(token, original, 'clip.mp4');
    expect(await transcode.runHanded()).toEqual({ [`transcode/${id}`]: 'skipped' });
    expect((await assetRepo.get(id))?.encodedVideoPath).toBeUndefined();
    expect(stored(encodedVideoKey({ id, ownerId: accounts.user1.userId }))).toBe(false);
    const reply = await playback(token, id);
    expect(reply.headers['content-type']).toBe('video/mp4');
    expect(sha1(Buffer.from(reply.body, 'base64'))).toBe(sha1(original));
  });

  it("videoConversion: 'all' re-decides every video under the settings now (encodes, or removes what is no longer wanted); 'missing' only videos without one", async () => {
    const token = accounts.user2.accessToken;
    const h264 = await uploadVideo(token, h264Clip(), 'plain.mp4');
    const photo = await addPhoto(token, { color: [1, 2, 3] });
    expect(await transcode.runHanded()).toEqual({ [`transcode/${h264}`]: 'skipped' });
    const key = encodedVideoKey({ id: h264, ownerId: accounts.user2.userId });
    try {
      // `transcode: all` encodes even a video the accepted codecs take.
      // Hardware acceleration asked for: there is no device, so the function encodes in software all the same.
      await changeConfig(accounts.admin.accessToken, (config) => ({
        ...config,
        ffmpeg: { ...config.ffmpeg, transcode: 'all', accel: 'nvenc' },
      }));
      expect((await startVideoConversion(false)).status).toBe(200);
      // Every video of every user is handed on (no photo), "missing" without force.
      const handed = transcode.handed.map((job) => job.assetId);
      expect(handed).toContain(h264);
      expect(handed).not.toContain(photo);
      expect(transcode.handed.every((job) => job.force === false)).toBe(true);
      // One video an invocation: an encode may take most of the function's time.
      expect(transcode.invocations.length).toBeGreaterThan(1);
      expect(transcode.invocations.every((jobs) => jobs === 1)).toBe(true);
      const missing = await transcode.runHanded();
      expect(missing[`transcode/${h264}`]).toBe('encoded');
      expect((await assetRepo.get(h264))?.encodedVideoPath).toBe(key);
      expect(await probeStored(key)).toMatchObject({ codec: 'h264' });

      // "missing" again: it has one now, left as it is.
      await startVideoConversion(false);
      expect((await transcode.runHanded())[`transcode/${h264}`]).toBe('skipped');

      // Another target codec: "all" encodes it again, over the same key.
      await changeConfig(accounts.admin.accessToken, (config) => ({ ...config, ffmpeg: { ...config.ffmpeg, targetVideoCodec: 'hevc' } }));
      await startVideoConversion(true);
      expect((await transcode.runHanded())[`transcode/${h264}`]).toBe('encoded');
      expect((await assetRepo.get(h264))?.encodedVideoPath).toBe(key);
      expect(await probeStored(key)).toMatchObject({ codec: 'hevc' });

      // Transcoding switched off, "all" removes the encoded version; playback is the original's again.
      await changeConfig(accounts.admin.accessToken, (config) => ({ ...config, ffmpeg: { ...config.ffmpeg, transcode: 'disabled' } }));
      await startVideoConversion(true);
      expect(transcode.handed.every((job) => job.force === true)).toBe(true);
      expect((await transcode.runHanded())[`transcode/${h264}`]).toBe('removed');
      expect((await assetRepo.get(h264))?.encodedVideoPath).toBeUndefined();
      expect(stored(key)).toBe(false);
    } finally {
      await changeConfig(accounts.admin.accessToken, (config) => ({
        ...config,
        // (A target codec is added to the accepted ones, as Immich's settings do: both back to the defaults.)
        ffmpeg: { ...config.ffmpeg, transcode: 'required', accel: 'disabled', targetVideoCodec: 'h264', acceptedVideoCodecs: ['h264'] },
      }));
    }
  });

  it('a video ffprobe cannot read is a failed run of videoConversion, and keeps playing its original', async () => {
    const token = accounts.user1.accessToken;
    // An .mp4 of no video at all: its upload stores it, its poster cannot be made (so nothing is handed on).
    const bytes = Buffer.concat([Buffer.from('not a video '), Buffer.alloc(2000, 7)]);
    const reply = await upload(token, { data: bytes, fileName: 'broken.mp4' });
    expect(reply.status).toBe(201);
    const id = reply.body.id as string;
    expect(await objectCreated((await assetInfo(token, id)).body.originalPath)).toMatchObject({ outcomes: expect.any(Object) });
    expect(transcode.handed).toEqual([]);
    const before = await videoConversion();
    expect((await transcodeVideo({ jobs: [{ kind: 'transcode', assetId: id, force: true }] })).outcomes).toEqual({
      [`transcode/${id}`]: 'failed',
    });
    const after = await videoConversion();
    expect([after.failed, after.completed]).toEqual([before.failed + 1, before.completed]);
    expect((await assetRepo.get(id))?.encodedVideoPath).toBeUndefined();
    expect(sha1(Buffer.from((await playback(token, id)).body, 'base64'))).toBe(sha1(bytes));
  });

  it('transcode-video (both generations) hands the caller’s videos on, forced; not a photo, not another’s', async () => {
    const token = accounts.user1.accessToken;
    const video = await uploadVideo(token, hevcClip(1), 'IMG_0002.MOV');
    transcode.forget();
    const photo = await addPhoto(token, { color: [5, 6, 7] });
    const v3 = await invoke(runAssetJobs, {
      method: 'POST',
      path: '/api/assets/jobs',
      headers: bearer(token),
      body: { assetIds: [video, photo], name: 'transcode-video' },
    });
    expect(v3.status).toBe(204);
    expect(transcode.handed).toEqual([{ kind: 'transcode', assetId: video, force: true }]);
    const v1 = await invoke(runAssetJobsV1, {
      method: 'POST',
      path: '/api/asset/jobs',
      headers: bearer(token),
      body: { assetIds: [video], name: 'transcode-video' },
    });
    expect(v1.status).toBe(204);
    expect(await transcode.runHanded()).toEqual({ [`transcode/${video}`]: 'encoded' });
    const others = await invoke(runAssetJobs, {
      method: 'POST',
      path: '/api/assets/jobs',
      headers: bearer(accounts.user2.accessToken),
      body: { assetIds: [video], name: 'transcode-video' },
    });
    expect(others.body).toMatchObject({ message: 'Not found or no asset.update access' });
    expect(transcode.handed).toEqual([]);
  });

  it("a motion photo's video is handed on with its poster (hidden), and 'missing' leaves hidden videos alone", async () => {
    const token = accounts.user1.accessToken;
    const reply = await upload(token, {
      data: makeMotionPhoto(makeJpeg({ width: 300, height: 200, color: [9, 9, 1] }), makeClip('hevc-motion').bytes),
      fileName: 'PXL_0002.MP.jpg',
    });
    const motionId = (await assetInfo(token, reply.body.id)).body.livePhotoVideoId as string;
    transcode.forget();
    await objectCreated((await assetInfo(token, motionId)).body.originalPath);
    expect(transcode.handed).toEqual([{ kind: 'transcode', assetId: motionId, force: true }]);
    transcode.forget();
    expect((await transcodeVideo({ jobs: [{ kind: 'transcode', assetId: motionId }] })).outcomes).toEqual({
      [`transcode/${motionId}`]: 'skipped',
    });
    expect((await transcodeVideo({ jobs: [{ kind: 'transcode', assetId: motionId, force: true }] })).outcomes).toEqual({
      [`transcode/${motionId}`]: 'encoded',
    });
    // A photo, or an asset that is not there, is no video to encode.
    expect((await transcodeVideo({ jobs: [{ kind: 'transcode', assetId: reply.body.id, force: true }] })).outcomes).toEqual({
      [`transcode/${reply.body.id}`]: 'gone',
    });
  });

  it("records MediaConvert's output on COMPLETE, deletes it when the asset went meanwhile, and keeps the original on ERROR", async () => {
    const token = accounts.user1.accessToken;
    const id = await uploadVideo(token, hevcClip(2), 'IMG_0003.MOV');
    transcode.forget();
    const key = encodedVideoKey({ id, ownerId: accounts.user1.userId });
    const event = (status: string, assetId: string, outputKey: string) => ({
      source: 'aws.mediaconvert' as const,
      'detail-type': 'MediaConvert Job State Change' as const,
      detail: {
        status,
        jobId: '1700000000000-abc123',
        userMetadata: { assetId },
        outputGroupDetails: [{ outputDetails: [{ outputFilePaths: [`s3://originals/${outputKey}`] }] }],
      },
    });
    // What MediaConvert wrote (here: an MP4 of our own).
    const output = h264Clip();
    const store = await originalsStore();
    await store.put(key, output, 'video/mp4');
    expect((await transcodeVideo(event('ERROR', id, key))).outcomes).toEqual({ [`mediaconvert/${id}`]: 'failed' });
    expect((await assetRepo.get(id))?.encodedVideoPath).toBeUndefined();
    expect((await transcodeVideo(event('COMPLETE', id, key))).outcomes).toEqual({ [`mediaconvert/${id}`]: 'encoded' });
    expect((await assetRepo.get(id))?.encodedVideoPath).toBe(key);
    expect(sha1(Buffer.from((await playback(token, id)).body, 'base64'))).toBe(sha1(output));

    // An asset deleted before its job completed: what the job wrote goes.
    const gone = await uploadVideo(token, hevcClip(3), 'IMG_0004.MOV');
    transcode.forget();
    expect((await trash(token, [gone], true)).status).toBe(204);
    const goneKey = encodedVideoKey({ id: gone, ownerId: accounts.user1.userId });
    await store.put(goneKey, output, 'video/mp4');
    expect((await transcodeVideo(event('COMPLETE', gone, goneKey))).outcomes).toEqual({ [`mediaconvert/${gone}`]: 'gone' });
    expect(stored(goneKey)).toBe(false);
  });
});
