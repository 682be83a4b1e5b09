import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type MediaConvertJobRequest,
  type MediaConvertProbe,
  maxBitrateBps,
  mediaConvertJobSettings,
  mediaConvertOutputUrl,
  mediaConvertSubmitter,
  qvbrQualityLevel,
  readMediaConvertEvent,
  submitMediaConvertJob,
} from '#shared/media/mediaconvert.ts';
import { configDefaults, type SystemConfig } from '#shared/model/config.ts';
import type { useMediaConvert } from '#shared/services/media/transcode.service.ts';

const ffmpeg = (overrides: Partial<SystemConfig['ffmpeg']> = {}): SystemConfig['ffmpeg'] => ({ ...configDefaults.ffmpeg, ...overrides });

const owner = 'b6c5a2f0-0000-4000-8000-000000000001';
const asset = '3fa9c1d2-1111-4111-8111-111111111111';
const bucket = 'immich-originals';
const request = (probe: MediaConvertProbe, more: Partial<MediaConvertJobRequest> = {}): MediaConvertJobRequest => ({
  inputUrl: `s3://${bucket}/upload/${owner}/3f/a9/${asset}.mov`,
  outputKeyBase: `s3://${bucket}/thumbs/${owner}/3f/a9/${asset}-encoded`,
  ffmpeg: ffmpeg(),
  probe,
  decision: { target: 'all', remux: false },
  roleArn: 'arn:aws:iam::123456789012:role/MediaConvertRole',
  assetId: asset,
  ownerId: owner,
  stack: 'ImmichServerless',
  ...more,
});

const hdrHevc4k: MediaConvertProbe = {
  duration: 1200,
  video: { width: 3840, height: 2160, codecName: 'hevc', rotation: 0, colorTransfer: 'hlg' },
  audio: { codecName: 'aac' },
};

describe('mediaConvertJobSettings', () => {
  it('encodes a 4K HLG HEVC landscape clip to 720p H.264 tone mapped to BT.709, AAC stereo, MP4 with moov first, named as the encoded key', () => {
    const input = mediaConvertJobSettings(request(hdrHevc4k));
    expect(input.Role).toBe('arn:aws:iam::123456789012:role/MediaConvertRole');
    expect(input.UserMetadata).toEqual({ assetId: asset, ownerId: owner, stack: 'ImmichServerless' });
    const [source] = input.Settings?.Inputs ?? [];
    expect(source?.FileInput).toBe(`s3://${bucket}/upload/${owner}/3f/a9/${asset}.mov`);
    expect(source?.VideoSelector?.Rotate).toBe('AUTO');
    expect(source?.AudioSelectors?.['Audio Selector 1']).toEqual({ DefaultSelection: 'DEFAULT' });
    const [group] = input.Settings?.OutputGroups ?? [];
    expect(group?.OutputGroupSettings).toEqual({
      Type: 'FILE_GROUP_SETTINGS',
      FileGroupSettings: { Destination: `s3://${bucket}/thumbs/${owner}/3f/a9/${asset}` },
    });
    expect(mediaConvertOutputUrl(input)).toBe(`s3://${bucket}/thumbs/${owner}/3f/a9/${asset}-encoded.mp4`);
    const [output] = group?.Outputs ?? [];
    expect(output?.ContainerSettings).toEqual({ Container: 'MP4', Mp4Settings: { MoovPlacement: 'PROGRESSIVE_DOWNLOAD' } });
    const video = output?.VideoDescription;
    expect(video).toMatchObject({ Width: 1280, Height: 720 });
    expect(video?.CodecSettings?.Codec).toBe('H_264');
    expect(video?.CodecSettings?.H264Settings).toMatchObject({
      RateControlMode: 'QVBR',
      QvbrSettings: { QvbrQualityLevel: 7 },
      MaxBitrate: 5_000_000,
      QualityTuningLevel: 'SINGLE_PASS',
      CodecProfile: 'HIGH',
    });
    expect(video?.VideoPreprocessors?.ColorCorrector).toEqual({
      ColorSpaceConversion: 'FORCE_709',
      HdrToSdrToneMapper: 'PRESERVE_DETAILS',
    });
    expect(output?.AudioDescriptions).toEqual([
      {
        AudioSourceName: 'Audio Selector 1',
        CodecSettings: { Codec: 'AAC', AacSettings: { Bitrate: 128_000, CodingMode: 'CODING_MODE_2_0', SampleRate: 48_000 } },
      },
    ]);
  });

  it('writes HEVC (hvc1) when the target codec is hevc, keeps HDR when tone mapping is disabled, and the other curves map to VIBRANT', () => {
    const hevc = mediaConvertJobSettings(request(hdrHevc4k, { ffmpeg: ffmpeg({ targetVideoCodec: 'hevc', tonemap: 'disabled' }) }));
    const video = hevc.Settings?.OutputGroups?.[0]?.Outputs?.[0]?.VideoDescription;
    expect(video?.CodecSettings?.Codec).toBe('H_265');
    expect(video?.CodecSettings?.H265Settings).toMatchObject({ WriteMp4PackagingType: 'HVC1', RateControlMode: 'QVBR' });
    expect(video?.VideoPreprocessors).toBeUndefined();
    const mobius = mediaConvertJobSettings(request(hdrHevc4k, { ffmpeg: ffmpeg({ tonemap: 'mobius' }) }));
    expect(mobius.Settings?.OutputGroups?.[0]?.Outputs?.[0]?.VideoDescription?.VideoPreprocessors?.ColorCorrector?.HdrToSdrToneMapper).toBe(
      'VIBRANT',
    );
    // SDR needs no colour conversion.
    const sdr = mediaConvertJobSettings(
      request({ ...hdrHevc4k, video: { ...(hdrHevc4k.video as NonNullable<MediaConvertProbe['video']>), colorTransfer: 'sdr' } }),
    );
    expect(sdr.Settings?.OutputGroups?.[0]?.Outputs?.[0]?.VideoDescription?.VideoPreprocessors).toBeUndefined();
  });

  it('sizes a portrait clip by Immich’s vertical rule: a 1920x1080 stream turned 90° and a 1080x1920 one both give 720x1280', () => {
    for (const video of [
      { width: 1920, height: 1080, codecName: 'hevc', rotation: 90, colorTransfer: 'sdr' as const },
      { width: 1080, height: 1920, codecName: 'hevc', rotation: 0, colorTransfer: 'sdr' as const },
    ]) {
      const input = mediaConvertJobSettings(request({ duration: 900, video }));
      expect(input.Settings?.Inputs?.[0]?.VideoSelector?.Rotate).toBe('AUTO');
      expect(input.Settings?.OutputGroups?.[0]?.Outputs?.[0]?.VideoDescription).toMatchObject({ Width: 720, Height: 1280 });
    }
    // No larger than the target and even: not scaled (MediaConvert follows the source); `original` never scales.
    const small = mediaConvertJobSettings(
      request({ duration: 900, video: { width: 1280, height: 720, codecName: 'hevc', rotation: 0, colorTransfer: 'sdr' } }),
    );
    expect(small.Settings?.OutputGroups?.[0]?.Outputs?.[0]?.VideoDescription?.Width).toBeUndefined();
    const original = mediaConvertJobSettings(request(hdrHevc4k, { ffmpeg: ffmpeg({ targetResolution: 'original' }) }));
    expect(original.Settings?.OutputGroups?.[0]?.Outputs?.[0]?.VideoDescription?.Height).toBeUndefined();
    // The QVBR ceiling follows the output's size when the settings set none.
    expect(original.Settings?.OutputGroups?.[0]?.Outputs?.[0]?.VideoDescription?.CodecSettings?.H264Settings?.MaxBitrate).toBe(20_000_000);
  });

  it('passes an accepted H.264 video through when only the audio needs encoding (and with no audio, asks for none)', () => {
    const probe: MediaConvertProbe = {
      duration: 1500,
      video: { width: 1920, height: 1080, codecName: 'h264', rotation: 0, colorTransfer: 'sdr' },
      audio: { codecName: 'pcm_s16le' },
    };
    const input = mediaConvertJobSettings(request(probe, { decision: { target: 'audio', remux: false } }));
    const output = input.Settings?.OutputGroups?.[0]?.Outputs?.[0];
    expect(output?.VideoDescription).toEqual({ CodecSettings: { Codec: 'PASSTHROUGH' } });
    expect(input.Settings?.Inputs?.[0]?.VideoSelector?.Rotate).toBe('DEGREE_0');
    expect(output?.AudioDescriptions?.[0]?.CodecSettings?.Codec).toBe('AAC');
    // Rotated, the passthrough could not turn it: encoded at its own size instead (no scaling, as Immich copies it).
    const rotated = mediaConvertJobSettings(
      request(
        { ...probe, video: { ...(probe.video as NonNullable<MediaConvertProbe['video']>), rotation: -90 } },
        { decision: { target: 'audio', remux: false } },
      ),
    );
    const turned = rotated.Settings?.OutputGroups?.[0]?.Outputs?.[0]?.VideoDescription;
    expect(turned?.CodecSettings?.Codec).toBe('H_264');
    expect(turned?.Width).toBeUndefined();
    expect(rotated.Settings?.Inputs?.[0]?.VideoSelector?.Rotate).toBe('AUTO');
    // No audio stream: no selector, no audio output.
    const silent = mediaConvertJobSettings(request({ duration: 1500, video: probe.video }, { decision: { target: 'all', remux: false } }));
    expect(silent.Settings?.Inputs?.[0]?.AudioSelectors).toBeUndefined();
    expect(silent.Settings?.OutputGroups?.[0]?.Outputs?.[0]?.AudioDescriptions).toBeUndefined();
  });

  it('maps maxBitrate as Immich’s command does: two passes → multi-pass VBR at max/1.45, a cap alone → QVBR under it; crf → a QVBR level', () => {
    const twoPass = mediaConvertJobSettings(request(hdrHevc4k, { ffmpeg: ffmpeg({ maxBitrate: '4M', twoPass: true }) }));
    expect(twoPass.Settings?.OutputGroups?.[0]?.Outputs?.[0]?.VideoDescription?.CodecSettings?.H264Settings).toMatchObject({
      RateControlMode: 'VBR',
      Bitrate: Math.ceil(4_000_000 / 1.45),
      MaxBitrate: 4_000_000,
      QualityTuningLevel: 'MULTI_PASS_HQ',
    });
    const capped = mediaConvertJobSettings(request(hdrHevc4k, { ffmpeg: ffmpeg({ maxBitrate: '3000', crf: 28, preset: 'slow' }) }));
    expect(capped.Settings?.OutputGroups?.[0]?.Outputs?.[0]?.VideoDescription?.CodecSettings?.H264Settings).toMatchObject({
      RateControlMode: 'QVBR',
      QvbrSettings: { QvbrQualityLevel: 5 },
      MaxBitrate: 3_000_000,
      HrdBufferSize: 6_000_000,
      QualityTuningLevel: 'SINGLE_PASS_HQ',
    });
    // twoPass without a cap is one pass, as Immich's eligibleForTwoPass.
    const uncapped = mediaConvertJobSettings(request(hdrHevc4k, { ffmpeg: ffmpeg({ twoPass: true }) }));
    expect(uncapped.Settings?.OutputGroups?.[0]?.Outputs?.[0]?.VideoDescription?.CodecSettings?.H264Settings?.RateControlMode).toBe('QVBR');
    expect([maxBitrateBps('0'), maxBitrateBps('10000k'), maxBitrateBps('10M'), maxBitrateBps('abc')]).toEqual([
      0, 10_000_000, 10_000_000, 0,
    ]);
    expect([0, 14, 17, 23, 28, 35, 51].map(qvbrQualityLevel)).toEqual([10, 10, 9, 7, 5, 3, 1]);
  });

  it('refuses what it cannot send: no video stream, or a location that is not s3://', () => {
    expect(() => mediaConvertJobSettings(request({ duration: 10, audio: { codecName: 'aac' } }))).toThrow(/no video stream/);
    expect(() => mediaConvertJobSettings(request(hdrHevc4k, { inputUrl: '/tmp/a.mov' }))).toThrow(/s3:/);
  });
});

describe('readMediaConvertEvent', () => {
  const event = (detail: Record<string, unknown>) => ({
    version: '0',
    id: 'e1',
    'detail-type': 'MediaConvert Job State Change',
    source: 'aws.mediaconvert',
    account: '123456789012',
    time: '2026-11-28T12:00:00Z',
    region: 'eu-west-1',
    resources: ['arn:aws:mediaconvert:eu-west-1:123456789012:jobs/1700000000000-abcdef'],
    detail: {
      timestamp: 1_700_000_000_000,
      accountId: '123456789012',
      queue: 'arn:aws:mediaconvert:eu-west-1:123456789012:queues/Default',
      jobId: '1700000000000-abcdef',
      ...detail,
    },
  });

  it('reads a finished job: its asset, owner, stack and the encoded file’s bucket and key', () => {
    expect(
      readMediaConvertEvent(
        event({
          status: 'COMPLETE',
          userMetadata: { assetId: asset, ownerId: owner, stack: 'ImmichServerless' },
          outputGroupDetails: [
            {
              type: 'FILE_GROUP',
              outputDetails: [
                {
                  outputFilePaths: [`s3://${bucket}/thumbs/${owner}/3f/a9/${asset}-encoded.mp4`],
                  durationInMs: 1_200_000,
                  videoDetails: { widthInPx: 1280, heightInPx: 720 },
                },
              ],
            },
          ],
        }),
      ),
    ).toEqual({
      jobId: '1700000000000-abcdef',
      status: 'COMPLETE',
      assetId: asset,
      ownerId: owner,
      stack: 'ImmichServerless',
      output: { bucket, key: `thumbs/${owner}/3f/a9/${asset}-encoded.mp4`, durationMs: 1_200_000, width: 1280, height: 720 },
    });
  });

  it('reads a failed job with its error, and ignores other states, other events and jobs that are not ours', () => {
    expect(
      readMediaConvertEvent(
        event({ status: 'ERROR', userMetadata: { assetId: asset }, errorCode: 1010, errorMessage: 'Unable to open input file' }),
      ),
    ).toEqual({
      jobId: '1700000000000-abcdef',
      status: 'ERROR',
      assetId: asset,
      error: { code: 1010, message: 'Unable to open input file' },
    });
    expect(readMediaConvertEvent(event({ status: 'PROGRESSING', userMetadata: { assetId: asset } }))).toBeUndefined();
    expect(readMediaConvertEvent(event({ status: 'COMPLETE', userMetadata: {} }))).toBeUndefined();
    expect(readMediaConvertEvent({ jobs: [{ kind: 'transcode', assetId: asset }] })).toBeUndefined();
    expect(readMediaConvertEvent({ ...event({ status: 'COMPLETE', userMetadata: { assetId: asset } }), source: 'aws.s3' })).toBeUndefined();
  });
});

describe('submitMediaConvertJob', () => {
  // A loopback server in MediaConvert's place (AWS_ENDPOINT_URL_MEDIACONVERT, as the SDK reads it):
  // it records the request the real client sends and answers as MediaConvert answers CreateJob.
  const received: { method?: string; url?: string; headers: IncomingMessage['headers']; body: unknown }[] = [];
  let refuse = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      if (refuse) {
        res.writeHead(400, { 'content-type': 'application/json', 'x-amzn-errortype': 'BadRequestException' });
        res.end(JSON.stringify({ message: '/outputGroups/0/outputs/0: refused' }));
        return;
      }
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ job: { id: '1700000000000-xyz', status: 'SUBMITTED' } }));
    });
  });
  const saved = { ...process.env };
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_MEDIACONVERT: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      AWS_ACCESS_KEY_ID: 'AKIDLOCAL',
      AWS_SECRET_ACCESS_KEY: 'local',
    });
  });
  afterAll(async () => {
    process.env = saved;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends CreateJob with the settings (MediaConvert’s JSON names) and returns the job id', async () => {
    const input = mediaConvertJobSettings(request(hdrHevc4k));
    await expect(submitMediaConvertJob(input)).resolves.toEqual({ jobId: '1700000000000-xyz' });
    expect(received).toHaveLength(1);
    const [call] = received;
    expect(call?.method).toBe('POST');
    expect(call?.url).toBe('/2017-08-29/jobs');
    expect(String(call?.headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDLOCAL\/\d{8}\/us-east-1\/mediaconvert\//);
    const body = call?.body as Record<string, any>;
    expect(body.role).toBe('arn:aws:iam::123456789012:role/MediaConvertRole');
    expect(body.userMetadata).toEqual({ assetId: asset, ownerId: owner, stack: 'ImmichServerless' });
    expect(body.settings.inputs[0].fileInput).toBe(`s3://${bucket}/upload/${owner}/3f/a9/${asset}.mov`);
    expect(body.settings.outputGroups[0].outputs[0].containerSettings).toEqual({
      container: 'MP4',
      mp4Settings: { moovPlacement: 'PROGRESSIVE_DOWNLOAD' },
    });
    expect(body.settings.outputGroups[0].outputs[0].videoDescription.videoPreprocessors.colorCorrector).toEqual({
      colorSpaceConversion: 'FORCE_709',
      hdrToSdrToneMapper: 'PRESERVE_DETAILS',
    });
  });

  it('hands a long video to MediaConvert as the transcode service asks, from the bucket and role the stack set: the original in, the encoded key out', async () => {
    // Without the stack's bucket and role (locally, or transcoding off) there is no hand-off.
    expect(mediaConvertSubmitter()).toBeUndefined();
    Object.assign(process.env, {
      ORIGINALS_BUCKET: bucket,
      MEDIACONVERT_ROLE_ARN: 'arn:aws:iam::123456789012:role/Mc',
      STACK_NAME: 'Stack1',
    });
    // What the transcode service takes (typecheck: the submitter fits its hook).
    const submit: Parameters<typeof useMediaConvert>[0] = mediaConvertSubmitter();
    expect(submit).toBeDefined();
    const video = { id: asset, ownerId: owner, originalPath: `upload/${owner}/3f/a9/${asset}.mov` } as Parameters<
      NonNullable<typeof submit>
    >[0];
    const probe = {
      formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
      formatLongName: 'QuickTime / MOV',
      bitrate: 0,
      ...hdrHevc4k,
    } as Parameters<NonNullable<typeof submit>>[1];
    const decision = { target: 'all', remux: false, needed: true, reason: 'hevc' } as const;
    received.length = 0;
    await expect(submit?.(video, probe, decision, ffmpeg())).resolves.toBe(true);
    const body = received[0]?.body as Record<string, any>;
    expect(body.role).toBe('arn:aws:iam::123456789012:role/Mc');
    expect(body.userMetadata).toEqual({ assetId: asset, ownerId: owner, stack: 'Stack1' });
    expect(body.settings.inputs[0].fileInput).toBe(`s3://${bucket}/upload/${owner}/3f/a9/${asset}.mov`);
    const group = body.settings.outputGroups[0];
    expect(`${group.outputGroupSettings.fileGroupSettings.destination}${group.outputs[0].nameModifier}.${group.outputs[0].extension}`).toBe(
      `s3://${bucket}/thumbs/${owner}/3f/a9/${asset}-encoded.mp4`,
    );
    // Refused (a setting MediaConvert does not take): false, so the function encodes it itself.
    refuse = true;
    await expect(submit?.(video, probe, decision, ffmpeg())).resolves.toBe(false);
  });
});
