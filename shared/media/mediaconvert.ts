/**
 * AWS Elemental MediaConvert for the videos too long for the transcode function (docs/deployment.md,
 * "Transcoding"): the job's settings built from the same decision and `ffmpeg` settings as the
 * ffmpeg command (the transcode module beside this one), its submission, and the EventBridge event that tells
 * of its end. MediaConvert reads the original from S3 and writes the encoded version beside the
 * asset's previews; nothing passes through Lambda. Where its output differs from Immich's ffmpeg
 * command: docs/immich-compatibility.md, "Video".
 */
import type { AudioDescription, CreateJobCommandInput, Output, VideoCodecSettings, VideoDescription } from '@aws-sdk/client-mediaconvert';
import * as v from 'valibot';
import * as env from '../core/env.ts';
import { log } from '../core/log.ts';
import { encodedVideoKey } from '../domain/media-files.ts';
import type { AssetRecord } from '../model/asset.ts';
import type { SystemConfig } from '../model/config.ts';

export type FfmpegSettings = SystemConfig['ffmpeg'];

/** What the settings read of a probe (the transcode module's `VideoProbe`: its fields of the same names). */
export interface MediaConvertProbe {
  duration: number;
  video?: { width: number; height: number; codecName: string; rotation: number; colorTransfer: 'pq' | 'hlg' | 'sdr' };
  audio?: { codecName: string };
}

/** What the settings read of a decision (the transcode module's `TranscodeDecision`). */
export interface MediaConvertDecision {
  target: 'none' | 'audio' | 'video' | 'all';
  remux: boolean;
}

export interface MediaConvertJobRequest {
  /** The original: `s3://<bucket>/upload/…`. */
  inputUrl: string;
  /**
   * Where the encoded version goes, without the extension: `s3://<bucket>/thumbs/<owner>/<ab>/<cd>/<id>-encoded`.
   * MediaConvert names the file `<destination><NameModifier>.mp4`, so the job's destination is this
   * without `-encoded`, and `-encoded` its name modifier: the key is exactly `<outputKeyBase>.mp4`.
   */
  outputKeyBase: string;
  ffmpeg: FfmpegSettings;
  probe: MediaConvertProbe;
  decision: MediaConvertDecision;
  /** The role MediaConvert assumes (`MEDIACONVERT_ROLE_ARN`). */
  roleArn: string;
  assetId: string;
  ownerId?: string;
  /** The stack's name, in the job's user metadata (the EventBridge rule matches it); `STACK_NAME` when not given. */
  stack?: string;
}

const nameModifier = '-encoded';

/** `10000k`, `10M`, `10000` (kb/s, as Immich reads a bare number) → bits per second; 0 when unset or unreadable. */
export const maxBitrateBps = (maxBitrate: string): number => {
  const match = /^\s*(\d+)\s*([kKmM]?)/.exec(maxBitrate);
  if (!match) return 0;
  const value = Number(match[1]);
  return match[2]?.toLowerCase() === 'm' ? value * 1_000_000 : value * 1000;
};

/**
 * Immich's `crf` as MediaConvert's QVBR quality level (1–10, 10 best): MediaConvert has no CRF.
 * Immich's default 23 is AWS's recommended level 7; every 3 CRF steps (about half or double the
 * bit rate in x264) is one level: 17 → 9, 28 → 5, 35 → 3.
 */
export const qvbrQualityLevel = (crf: number): number => Math.min(10, Math.max(1, Math.round(7 - (crf - 23) / 3)));

/**
 * QVBR's ceiling when the settings set no `maxBitrate` (MediaConvert requires one with QVBR): by
 * the output's short side, generous enough that quality, not the cap, decides the rate of a phone video.
 */
export const defaultMaxBitrate = (shortSide: number): number =>
  shortSide <= 480 ? 2_500_000 : shortSide <= 720 ? 5_000_000 : shortSide <= 1080 ? 8_000_000 : shortSide <= 1440 ? 12_000_000 : 20_000_000;

/** Immich's target size (the ffmpeg command follows the same rule): the short side at `targetResolution`, the long one by the aspect, even. */
export const outputSize = (
  video: NonNullable<MediaConvertProbe['video']>,
  ffmpeg: Pick<FfmpegSettings, 'targetResolution'>,
): { width: number; height: number } | undefined => {
  const shortSide = Math.min(video.width, video.height);
  let target = ffmpeg.targetResolution === 'original' ? shortSide : Number.parseInt(ffmpeg.targetResolution, 10);
  if (!Number.isFinite(target) || target <= 0) target = shortSide;
  if (target % 2 !== 0) target -= 1;
  const odd = video.width % 2 !== 0 || video.height % 2 !== 0;
  if (!odd && shortSide <= target) return undefined;
  let longer = Math.round(target * (Math.max(video.width, video.height) / shortSide));
  if (longer % 2 !== 0) longer -= 1;
  // Vertical (taller than wide, or turned a quarter by its rotation): the width is the short side.
  const vertical = video.height > video.width || Math.abs(video.rotation) === 90;
  return vertical ? { width: target, height: longer } : { width: longer, height: target };
};

/** Immich's tone-mapping curve as MediaConvert's HDR→SDR tone mapper (it has two). */
const toneMapper = (tonemap: string): 'PRESERVE_DETAILS' | 'VIBRANT' => (tonemap === 'hable' ? 'PRESERVE_DETAILS' : 'VIBRANT');

/** The encoded video, by Immich's settings: H.265 when the target codec is hevc, else H.264 (MediaConvert writes VP9 only into WebM, AV1 not as Immich's MP4). */
const encodedVideo = (
  request: MediaConvertJobRequest,
  size: { width: number; height: number } | undefined,
): { codec: VideoCodecSettings; hdrToSdr: boolean } => {
  const { ffmpeg, probe } = request;
  const video = probe.video;
  const shortSide = size ? Math.min(size.width, size.height) : Math.min(video?.width ?? 0, video?.height ?? 0);
  const max = maxBitrateBps(ffmpeg.maxBitrate);
  // Immich: two passes only with a maximum bit rate (-b:v target, -maxrate max); with a maximum alone,
  // -crf capped by -maxrate, which is what QVBR with a MaxBitrate is; without, -crf alone.
  const twoPass = ffmpeg.twoPass && max > 0;
  const rate = twoPass
    ? {
        RateControlMode: 'VBR' as const,
        Bitrate: Math.ceil(max / 1.45),
        MaxBitrate: max,
        QualityTuningLevel: 'MULTI_PASS_HQ' as const,
      }
    : {
        RateControlMode: 'QVBR' as const,
        QvbrSettings: { QvbrQualityLevel: qvbrQualityLevel(ffmpeg.crf) },
        MaxBitrate: max > 0 ? max : defaultMaxBitrate(shortSide),
        ...(max > 0 ? { HrdBufferSize: max * 2 } : {}),
        // The slow presets ask for quality over speed: MediaConvert's single-pass HQ (Professional tier).
        QualityTuningLevel: ['slow', 'slower', 'veryslow'].includes(ffmpeg.preset) ? ('SINGLE_PASS_HQ' as const) : ('SINGLE_PASS' as const),
      };
  const gop = {
    ...(ffmpeg.gopSize > 0 ? { GopSize: ffmpeg.gopSize, GopSizeUnits: 'FRAMES' as const } : {}),
    ...(ffmpeg.bframes > -1 ? { NumberBFramesBetweenReferenceFrames: ffmpeg.bframes } : {}),
    ...(ffmpeg.refs > 0 ? { NumberReferenceFrames: ffmpeg.refs } : {}),
  };
  const hdrToSdr = ffmpeg.tonemap !== 'disabled' && (video?.colorTransfer === 'pq' || video?.colorTransfer === 'hlg');
  // 8-bit 4:2:0 out, as Immich's `format=yuv420p`.
  const codec: VideoCodecSettings =
    ffmpeg.targetVideoCodec === 'hevc'
      ? {
          Codec: 'H_265',
          H265Settings: { ...rate, ...gop, CodecProfile: 'MAIN_MAIN', CodecLevel: 'AUTO', WriteMp4PackagingType: 'HVC1' },
        }
      : { Codec: 'H_264', H264Settings: { ...rate, ...gop, CodecProfile: 'HIGH', CodecLevel: 'AUTO' } };
  return { codec, hdrToSdr };
};

/**
 * The CreateJob request for one asset: one MP4 output (`moov` first, as `-movflags faststart`) with
 * the video re-encoded when the decision says so (scaled by Immich's rule, turned upright, tone
 * mapped from HLG/PQ to BT.709), and AAC stereo audio when the original has audio. A video Immich
 * would copy (the decision's target is `audio`, or only the container changes) is passed through
 * when it is H.264 or HEVC and not rotated (MediaConvert's passthrough cannot turn it); else it is
 * encoded at its own size. MediaConvert cannot copy audio into MP4, so audio is always AAC 2.0.
 */
export const mediaConvertJobSettings = (request: MediaConvertJobRequest): CreateJobCommandInput => {
  const { probe, decision, ffmpeg } = request;
  const video = probe.video;
  if (!video) throw new Error('MediaConvert: the probe found no video stream');
  const reencode = decision.target === 'video' || decision.target === 'all';
  const passthrough = !reencode && ['h264', 'hevc'].includes(video.codecName) && video.rotation % 360 === 0;
  const size = reencode ? outputSize(video, ffmpeg) : undefined;
  let videoDescription: VideoDescription;
  if (passthrough) {
    videoDescription = { CodecSettings: { Codec: 'PASSTHROUGH' } };
  } else {
    const { codec, hdrToSdr } = encodedVideo(request, size);
    videoDescription = {
      CodecSettings: codec,
      ...(size ? { Width: size.width, Height: size.height, ScalingBehavior: 'DEFAULT' as const } : {}),
      ...(hdrToSdr
        ? {
            VideoPreprocessors: {
              ColorCorrector: { ColorSpaceConversion: 'FORCE_709', HdrToSdrToneMapper: toneMapper(ffmpeg.tonemap) },
            },
          }
        : {}),
    };
  }
  const audio: AudioDescription[] = probe.audio
    ? [
        {
          AudioSourceName: 'Audio Selector 1',
          CodecSettings: {
            Codec: 'AAC',
            AacSettings: { Bitrate: 128_000, CodingMode: 'CODING_MODE_2_0', SampleRate: 48_000 },
          },
        },
      ]
    : [];
  const output: Output = {
    NameModifier: nameModifier,
    Extension: 'mp4',
    ContainerSettings: { Container: 'MP4', Mp4Settings: { MoovPlacement: 'PROGRESSIVE_DOWNLOAD' } },
    VideoDescription: videoDescription,
    ...(audio.length > 0 ? { AudioDescriptions: audio } : {}),
  };
  const base = request.outputKeyBase.replace(/\.mp4$/, '');
  const destination = base.endsWith(nameModifier) ? base.slice(0, -nameModifier.length) : base;
  if (!destination.startsWith('s3://') || !request.inputUrl.startsWith('s3://'))
    throw new Error('MediaConvert reads and writes s3:// URLs only');
  const stack = request.stack ?? env.stackName();
  return {
    Role: request.roleArn,
    UserMetadata: {
      assetId: request.assetId,
      ...(request.ownerId ? { ownerId: request.ownerId } : {}),
      ...(stack ? { stack } : {}),
    },
    Settings: {
      TimecodeConfig: { Source: 'ZEROBASED' },
      Inputs: [
        {
          FileInput: request.inputUrl,
          TimecodeSource: 'ZEROBASED',
          // Upright by the track's rotation, as ffmpeg's autorotate (not with passthrough, which cannot turn it).
          VideoSelector: { Rotate: passthrough ? 'DEGREE_0' : 'AUTO' },
          ...(probe.audio ? { AudioSelectors: { 'Audio Selector 1': { DefaultSelection: 'DEFAULT' } } } : {}),
        },
      ],
      OutputGroups: [
        {
          Name: 'File Group',
          OutputGroupSettings: { Type: 'FILE_GROUP_SETTINGS', FileGroupSettings: { Destination: destination } },
          Outputs: [output],
        },
      ],
    },
  };
};

/** The key the job writes (in the destination's bucket): `<destination's key><NameModifier>.<Extension>`. */
export const mediaConvertOutputUrl = (input: CreateJobCommandInput): string | undefined => {
  const group = input.Settings?.OutputGroups?.[0];
  const destination = group?.OutputGroupSettings?.FileGroupSettings?.Destination;
  const output = group?.Outputs?.[0];
  if (!destination || !output) return undefined;
  return `${destination}${output.NameModifier ?? ''}.${output.Extension ?? 'mp4'}`;
};

/**
 * The transcode service's hand-off to MediaConvert (shared/services/media/transcode.service.ts
 * `useMediaConvert`), when the stack set it up: the originals bucket, and the role MediaConvert
 * assumes (`MEDIACONVERT_ROLE_ARN`); without either (locally, or `-c transcoding=off`) there is none,
 * and every video is encoded by ffmpeg. The job reads `upload/…` and writes the asset's
 * `encodedVideoKey`; true once it is submitted, false (logged) when MediaConvert refused it, so the
 * caller can still encode the video itself.
 */
export const mediaConvertSubmitter = ():
  | ((
      asset: Pick<AssetRecord, 'id' | 'ownerId' | 'originalPath'>,
      probe: MediaConvertProbe,
      decision: MediaConvertDecision,
      ffmpeg: FfmpegSettings,
    ) => Promise<boolean>)
  | undefined => {
  const bucket = env.originalsBucket();
  const roleArn = env.mediaConvertRoleArn();
  if (!bucket || !roleArn) return undefined;
  return async (asset, probe, decision, ffmpeg) => {
    try {
      const input = mediaConvertJobSettings({
        inputUrl: `s3://${bucket}/${asset.originalPath}`,
        outputKeyBase: `s3://${bucket}/${encodedVideoKey(asset).replace(/\.mp4$/, '')}`,
        ffmpeg,
        probe,
        decision,
        roleArn,
        assetId: asset.id,
        ownerId: asset.ownerId,
      });
      const { jobId } = await submitMediaConvertJob(input);
      log.info('Submitted to MediaConvert', { assetId: asset.id, jobId, duration: probe.duration });
      return true;
    } catch (error) {
      log.error('MediaConvert did not take the video', { assetId: asset.id, error: String(error) });
      return false;
    }
  };
};

let client: import('@aws-sdk/client-mediaconvert').MediaConvertClient | undefined;

/**
 * Submits the job to the account's default on-demand queue (MediaConvert's regional endpoint;
 * `AWS_ENDPOINT_URL_MEDIACONVERT` replaces it, as for every client). The SDK's client is loaded
 * on first use, so the functions that never submit do not pay for it at a cold start.
 */
export const submitMediaConvertJob = async (input: CreateJobCommandInput): Promise<{ jobId: string }> => {
  const { MediaConvertClient, CreateJobCommand } = await import('@aws-sdk/client-mediaconvert');
  client ??= new MediaConvertClient({});
  const answer = await client.send(new CreateJobCommand(input));
  const jobId = answer.Job?.Id;
  if (!jobId) throw new Error('MediaConvert answered CreateJob without a job id');
  return { jobId };
};

const StateChangeSchema = v.object({
  source: v.literal('aws.mediaconvert'),
  'detail-type': v.literal('MediaConvert Job State Change'),
  detail: v.object({
    jobId: v.string(),
    status: v.string(),
    userMetadata: v.optional(v.record(v.string(), v.string()), {}),
    errorCode: v.optional(v.number()),
    errorMessage: v.optional(v.string()),
    outputGroupDetails: v.optional(
      v.array(
        v.object({
          outputDetails: v.optional(
            v.array(
              v.object({
                outputFilePaths: v.optional(v.array(v.string())),
                durationInMs: v.optional(v.number()),
                videoDetails: v.optional(v.object({ widthInPx: v.optional(v.number()), heightInPx: v.optional(v.number()) })),
              }),
            ),
          ),
        }),
      ),
    ),
  }),
});

export interface MediaConvertCompletion {
  jobId: string;
  status: 'COMPLETE' | 'ERROR';
  assetId: string;
  ownerId?: string;
  stack?: string;
  /** The encoded file (COMPLETE): its bucket and key, parsed from `s3://bucket/key`. */
  output?: { bucket: string; key: string; durationMs?: number; width?: number; height?: number };
  /** Why it failed (ERROR). */
  error?: { code?: number; message: string };
}

/**
 * EventBridge's "MediaConvert Job State Change" event, read: a finished (COMPLETE) or failed
 * (ERROR) job of one of our assets. Anything else (another state, another event, a job without our
 * `assetId` in its user metadata) is `undefined`: the transcode function's other events are not this.
 */
export const readMediaConvertEvent = (event: unknown): MediaConvertCompletion | undefined => {
  const parsed = v.safeParse(StateChangeSchema, event);
  if (!parsed.success) return undefined;
  const { detail } = parsed.output;
  const status = detail.status;
  const assetId = detail.userMetadata.assetId;
  if ((status !== 'COMPLETE' && status !== 'ERROR') || !assetId) return undefined;
  const { ownerId, stack } = detail.userMetadata;
  const completion: MediaConvertCompletion = {
    jobId: detail.jobId,
    status,
    assetId,
    ...(ownerId ? { ownerId } : {}),
    ...(stack ? { stack } : {}),
  };
  if (status === 'ERROR')
    return {
      ...completion,
      error: {
        ...(detail.errorCode === undefined ? {} : { code: detail.errorCode }),
        message: detail.errorMessage ?? 'MediaConvert job failed',
      },
    };
  const details = detail.outputGroupDetails?.[0]?.outputDetails?.[0];
  const path = details?.outputFilePaths?.[0];
  const match = path ? /^s3:\/\/([^/]+)\/(.+)$/.exec(path) : null;
  if (!match?.[1] || !match[2]) return completion;
  return {
    ...completion,
    output: {
      bucket: match[1],
      key: match[2],
      ...(details?.durationInMs === undefined ? {} : { durationMs: details.durationInMs }),
      ...(details?.videoDetails?.widthInPx === undefined ? {} : { width: details.videoDetails.widthInPx }),
      ...(details?.videoDetails?.heightInPx === undefined ? {} : { height: details.videoDetails.heightInPx }),
    },
  };
};
