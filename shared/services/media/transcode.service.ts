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
import { log } from '../../core/log.ts';
import * as assetRepo from '../../db/asset.repository.ts';
import { encodedVideoKey } from '../../domain/media-files.ts';
import { mimeTypeOf } from '../../domain/media-types.ts';
import { decideTranscode, encodeVideo, probeVideo, type TranscodeDecision, type VideoProbe } from '../../media/transcode.ts';
import type { AssetRecord } from '../../model/asset.ts';
import type { SystemConfig } from '../../model/config.ts';
import { type OriginalsStore, originalsStore } from '../../storage/originals.ts';
import { readConfig } from '../config.reader.ts';

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

/** A video for MediaConvert: its settings' module (and its client) loaded only when one is. */
type Submit = (asset: AssetRecord, probe: VideoProbe, decision: TranscodeDecision, ffmpeg: SystemConfig['ffmpeg']) => Promise<boolean>;
let submitToMediaConvert: Submit | undefined;

/** Set by the transcode function when the stack gave it MediaConvert (functions/media/transcode-video.ts); tests set their own. */
export const useMediaConvert = (submit: Submit | undefined): void => {
  submitToMediaConvert = submit;
};

/** The longest video the function encodes itself, in seconds (undefined: no limit, as locally). */
let lambdaMaxSeconds: number | undefined;
export const setLambdaMaxSeconds = (seconds: number | undefined): void => {
  lambdaMaxSeconds = seconds;
};

/**
 * One video's conversion, as Immich's handleVideoConversion: decided under the settings as they
 * are now. Without `force` (the videoConversion queue's "missing"), a hidden video (a motion
 * photo's), a trashed one and one with an encoded version are left as they are.
 */
export const transcodeAsset = async (assetId: string, { force = false }: { force?: boolean } = {}): Promise<TranscodeOutcome> => {
  const asset = await assetRepo.get(assetId);
  if (!asset || asset.type !== 'VIDEO') return 'gone';
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
  if (lambdaMaxSeconds !== undefined && probe.duration > lambdaMaxSeconds && submitToMediaConvert) {
    if (await submitToMediaConvert(asset, probe, decision, ffmpeg)) return 'submitted';
  }
  const key = encodedVideoKey(asset);
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

/** What the transcode function reads of EventBridge's "MediaConvert Job State Change". */
export interface MediaConvertStateChange {
  source: 'aws.mediaconvert';
  'detail-type': 'MediaConvert Job State Change';
  detail: {
    status: string;
    jobId?: string;
    userMetadata?: Record<string, string>;
    errorMessage?: string;
    outputGroupDetails?: { outputDetails?: { outputFilePaths?: string[] }[] }[];
  };
}

/** The keys a job wrote (`s3://<bucket>/<key>`) that are an encoded version of this asset: what is deleted when it went meanwhile. */
const outputKeysOf = (event: MediaConvertStateChange, assetId: string): string[] =>
  (event.detail.outputGroupDetails ?? [])
    .flatMap((group) => group.outputDetails ?? [])
    .flatMap((output) => output.outputFilePaths ?? [])
    .map((path) => /^s3:\/\/[^/]+\/(thumbs\/.+)$/.exec(path)?.[1] ?? '')
    .filter((key) => key.endsWith(`/${assetId}-encoded.mp4`));

/**
 * A MediaConvert job ended (its EventBridge event): COMPLETE records its output (the asset's
 * `encodedVideoKey`, where the job was told to write) on the asset named in its `userMetadata`,
 * or deletes what it wrote when the asset went meanwhile; ERROR is logged, and the video keeps
 * playing its original (or the encoded version it had).
 */
export const completeMediaConvertJob = async (event: MediaConvertStateChange): Promise<TranscodeOutcome> => {
  const { status, userMetadata, jobId } = event.detail;
  const assetId = userMetadata?.assetId;
  if (!assetId) {
    log.warn('A MediaConvert job without its asset', { jobId, status });
    return 'gone';
  }
  if (status !== 'COMPLETE') {
    log.error('A MediaConvert job failed', { assetId, jobId, status, error: event.detail.errorMessage });
    return 'failed';
  }
  const store = await originalsStore();
  const asset = await assetRepo.get(assetId);
  if (!asset) {
    await store.delete(outputKeysOf(event, assetId).map((key) => ({ key })));
    return 'gone';
  }
  return recordEncoded(store, asset, encodedVideoKey(asset));
};
