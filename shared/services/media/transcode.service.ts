/**
 * Immich's video conversion (its AssetEncodeVideo job: docs/media.md, "Transcoding"): a video's
 * streams probed, decided by the `ffmpeg` settings as Immich decides (shared/media/transcode.ts),
 * and its encoded version made with ffmpeg in the transcode function, stored beside its previews
 * (`encodedVideoKey`) and recorded on the asset (`encodedVideoPath`), which playback then serves.
 * A video longer than the function can encode in its time goes to MediaConvert when the stack set
 * one up (shared/media/mediaconvert.ts), whose completion comes back as an event
 * (`completeMediaConvertJob`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as env from '../../core/env.ts';
import { log } from '../../core/log.ts';
import * as assetRepo from '../../db/asset.repository.ts';
import { encodedVideoKey } from '../../domain/media-files.ts';
import { mimeTypeOf } from '../../domain/media-types.ts';
import { mediaConvertJobSettings, readMediaConvertEvent, submitMediaConvertJob } from '../../media/mediaconvert.ts';
import { decideTranscode, encodeVideo, probeVideo, type TranscodeDecision, type VideoProbe } from '../../media/transcode.ts';
import type { AssetRecord } from '../../model/asset.ts';
import type { SystemConfig } from '../../model/config.ts';
import { type OriginalsStore, originalsStore } from '../../storage/originals.ts';
import { readConfig } from '../config.reader.ts';

export type { TranscodeJob, TranscodeJobEvent } from '../../storage/transcode-jobs.ts';

/**
 * What one job did: `encoded` (made and recorded), `skipped` (none needed, or the queue's "missing"
 * run found it has one or is hidden), `removed` (none needed any more: the old one deleted),
 * `submitted` (handed to MediaConvert), `gone` (no such video, or its original is gone), `failed`
 * (ffprobe or ffmpeg could not read or encode it).
 */
export type TranscodeOutcome = 'encoded' | 'skipped' | 'removed' | 'submitted' | 'gone' | 'failed';

/** How long the URL ffmpeg reads an original from S3 by stays valid: longer than the function may run. */
const inputUrlSeconds = 3600;

/**
 * Where ffmpeg reads the original: the local folder's file, or a presigned URL (ffmpeg reads it
 * by ranges, so nothing is copied to /tmp first). Undefined when it is gone.
 */
const inputOf = async (store: OriginalsStore, asset: AssetRecord): Promise<string | undefined> => {
  if (!(await store.exists(asset.originalPath))) return undefined;
  if (store.localPath) return store.localPath(asset.originalPath);
  if (!store.signedUrl) return undefined;
  return store.signedUrl(asset.originalPath, {
    contentType: mimeTypeOf(asset.originalPath),
    cacheControl: 'no-store',
    expiresSeconds: inputUrlSeconds,
  });
};

let accelReported = false;

/**
 * Immich's hardware acceleration (`ffmpeg.accel`) needs a device no Lambda function has: the
 * setting is kept, reported once a process as unavailable, and the video encoded in software
 * (as Immich falls back when its hardware encode fails).
 */
const reportAccel = (ffmpeg: SystemConfig['ffmpeg']): void => {
  if (ffmpeg.accel === 'disabled' || accelReported) return;
  accelReported = true;
  log.warn('Hardware acceleration is unavailable: videos are encoded in software', { accel: ffmpeg.accel });
};

/** The encoded version no longer wanted: its file deleted, its key removed from the asset. */
const removeEncoded = async (store: OriginalsStore, asset: AssetRecord): Promise<TranscodeOutcome> => {
  if (!asset.encodedVideoPath) return 'skipped';
  await store.delete([{ key: asset.encodedVideoPath }]);
  await assetRepo.recordEncodedVideo(asset.id, undefined);
  return 'removed';
};

/** Records the encoded version stored under `key`; when the asset went meanwhile, its file goes too. */
const recordEncoded = async (store: OriginalsStore, asset: Pick<AssetRecord, 'id'>, key: string): Promise<TranscodeOutcome> => {
  const recorded = await assetRepo.recordEncodedVideo(asset.id, key);
  if (recorded.ok) return 'encoded';
  await store.delete([{ key }]);
  return 'gone';
};

/**
 * A video longer than the function encodes itself (`TRANSCODE_LAMBDA_MAX_SECONDS`), where the
 * stack gave it MediaConvert (`MEDIACONVERT_ROLE_ARN`) and the originals are in S3: a MediaConvert
 * job from the original to `key` (shared/media/mediaconvert.ts), whose completion comes back as
 * an event (`completeMediaConvertJob`). False: the function encodes it itself.
 */
const handedToMediaConvert = async (
  asset: AssetRecord,
  key: string,
  probe: VideoProbe,
  decision: TranscodeDecision,
  ffmpeg: SystemConfig['ffmpeg'],
): Promise<boolean> => {
  const limit = env.transcodeLambdaMaxSeconds();
  const roleArn = env.mediaConvertRoleArn();
  const bucket = env.originalsBucket();
  if (limit === undefined || !roleArn || !bucket || probe.duration <= limit) return false;
  const job = mediaConvertJobSettings({
    inputUrl: `s3://${bucket}/${asset.originalPath}`,
    outputKeyBase: `s3://${bucket}/${key.replace(/\.mp4$/, '')}`,
    ffmpeg,
    probe,
    decision,
    roleArn,
    assetId: asset.id,
    ownerId: asset.ownerId,
  });
  const { jobId } = await submitMediaConvertJob(job);
  log.info('submitted to MediaConvert', { assetId: asset.id, jobId, duration: probe.duration, limit });
  return true;
};

/**
 * One video's conversion, as Immich's handleVideoConversion: decided under the settings as they
 * are now. Without `force` (the videoConversion queue's "missing"), a hidden video (a motion
 * photo's), a trashed one and one with an encoded version are left as they are.
 */
export const transcodeAsset = async (assetId: string, { force = false }: { force?: boolean } = {}): Promise<TranscodeOutcome> => {
  const asset = await assetRepo.get(assetId);
  if (asset?.type !== 'VIDEO') return 'gone';
  if (!force && (asset.visibility === 'hidden' || asset.deletedAt !== null || asset.encodedVideoPath)) return 'skipped';
  const { ffmpeg } = await readConfig();
  const store = await originalsStore();
  const input = await inputOf(store, asset);
  if (!input) return 'gone';
  let probe: VideoProbe;
  try {
    probe = await probeVideo(input);
  } catch (error) {
    log.warn('A video its probe cannot read is not encoded', { assetId, error: String(error) });
    return 'failed';
  }
  // Immich fails a video without a video stream or dimensions ("missing metadata").
  if (!probe.video?.width || !probe.video.height) {
    log.warn('A video without a video stream is not encoded', { assetId });
    return 'failed';
  }
  const decision = decideTranscode(ffmpeg, probe);
  if (!decision.needed) return removeEncoded(store, asset);
  reportAccel(ffmpeg);
  const key = encodedVideoKey(asset);
  if (await handedToMediaConvert(asset, key, probe, decision, ffmpeg)) return 'submitted';
  const folder = await mkdtemp(join(tmpdir(), 'transcode-'));
  try {
    const output = join(folder, 'encoded.mp4');
    try {
      await encodeVideo(input, output, ffmpeg, probe);
    } catch (error) {
      log.error('A video was not encoded', { assetId, reason: decision.reason, error: String(error) });
      return 'failed';
    }
    await store.putFile(key, output, 'video/mp4');
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  log.info('encoded', { assetId, target: decision.target, reason: decision.reason });
  return recordEncoded(store, asset, key);
};

/** An encoded version's key, `thumbs/<owner>/<ab>/<cd>/<assetId>-encoded.mp4`, of this asset (what a job for a deleted asset wrote). */
const isEncodedKeyOf = (key: string, assetId: string): boolean =>
  /^thumbs\/[0-9a-f-]{36}\/[0-9a-f]{2}\/[0-9a-f-]{2}\/[0-9a-f-]{36}-encoded\.mp4$/.test(key) && key.endsWith(`/${assetId}-encoded.mp4`);

/**
 * A MediaConvert job ended (EventBridge's "MediaConvert Job State Change", read by
 * shared/media/mediaconvert.ts): COMPLETE records the asset's `encodedVideoKey` (where its job was
 * told to write) on the asset named in its user metadata, or deletes what it wrote when the asset
 * went meanwhile; ERROR is logged, and the video keeps playing its original (or the version it had).
 * Another state, or a job that is not ours, is `undefined`.
 */
export const completeMediaConvertJob = async (event: unknown): Promise<TranscodeOutcome | undefined> => {
  const completion = readMediaConvertEvent(event);
  if (!completion) return undefined;
  const { assetId, jobId } = completion;
  if (completion.status === 'ERROR') {
    log.error('A MediaConvert job failed', { assetId, jobId, error: completion.error?.message });
    return 'failed';
  }
  const store = await originalsStore();
  const asset = await assetRepo.get(assetId);
  if (!asset) {
    const written = completion.output?.key;
    if (written && isEncodedKeyOf(written, assetId)) await store.delete([{ key: written }]);
    return 'gone';
  }
  const key = encodedVideoKey(asset);
  if (completion.output && completion.output.key !== key)
    log.warn('A MediaConvert job wrote elsewhere', { assetId, jobId, key: completion.output.key });
  return recordEncoded(store, asset, key);
};
