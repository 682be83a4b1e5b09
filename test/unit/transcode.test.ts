import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffprobePath } from '#shared/media/binaries.ts';
import { motionVideoOf } from '#shared/media/motion-photo.ts';
import {
  decideTranscode,
  encodeVideo,
  type FfmpegSettings,
  ffmpegArgs,
  parseProbe,
  probeVideo,
  type TranscodeTarget,
  type VideoProbe,
} from '#shared/media/transcode.ts';
import { configDefaults } from '#shared/model/config.ts';
import { makeJpeg } from '../support/photos.ts';
import { makeClip, makeMotionPhoto, type TranscodeFixture } from '../support/videos.ts';

// Immich's transcode decision and command (docs/media.md, "Video transcoding") on clips a phone
// records, made here by ffmpeg (test/support/videos.ts) and checked with ffprobe.

const defaults = (): FfmpegSettings => structuredClone(configDefaults.ffmpeg);
const settings = (change: Partial<FfmpegSettings>): FfmpegSettings => ({ ...defaults(), ...change });

let folder: string;
const files = new Map<string, string>();
const probes = new Map<string, VideoProbe>();

/** The fixture on disk, and its probe. */
const fixture = (name: TranscodeFixture): string => {
  const path = files.get(name);
  if (!path) throw new Error(`${name} not made`);
  return path;
};
const probeOf = (name: TranscodeFixture): VideoProbe => {
  const probe = probes.get(name);
  if (!probe) throw new Error(`${name} not probed`);
  return probe;
};

const names: TranscodeFixture[] = ['hevc-hlg', 'hevc-pq', 'h264-aac', 'vp9-opus', 'h264-pcm', 'hevc-portrait', 'h264-ts', 'h264-1080p'];

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'transcode-test-'));
  for (const name of names) {
    const clip = makeClip(name);
    const path = join(folder, `${name}.${clip.extension}`);
    writeFileSync(path, clip.bytes);
    files.set(name, path);
  }
  await Promise.all(names.map(async (name) => probes.set(name, await probeVideo(fixture(name)))));
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** ffprobe's own view of a file (independent of probeVideo's reading of it). */
const ffprobe = async (path: string) => {
  const out = execFileSync(await ffprobePath(), ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path], {
    encoding: 'utf8',
    env: { ...process.env, GCONV_PATH: '/nonexistent-gconv' },
  });
  const json = JSON.parse(out) as {
    format: { format_name: string; duration: string };
    streams: Array<
      Record<string, unknown> & { codec_type: string; side_data_list?: { rotation?: number }[]; tags?: Record<string, string> }
    >;
  };
  const video = json.streams.find((s) => s.codec_type === 'video');
  const audio = json.streams.find((s) => s.codec_type === 'audio');
  const rotation = Number(video?.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? video?.tags?.rotate ?? 0);
  return { format: json.format, video, audio, rotation, streams: json.streams.length };
};

describe('probeVideo', () => {
  it('reads the HDR clips: HEVC Main 10, their transfer, dimensions, audio, duration', () => {
    for (const [name, transfer] of [
      ['hevc-hlg', 'hlg'],
      ['hevc-pq', 'pq'],
    ] as const) {
      const probe = probeOf(name);
      expect(probe.formatLongName).toBe('QuickTime / MOV');
      expect(probe.duration).toBeCloseTo(1, 1);
      expect(probe.video).toMatchObject({ index: 0, codecName: 'hevc', pixelFormat: 'yuv420p10le', width: 640, height: 360, rotation: 0 });
      expect(probe.video?.colorTransfer).toBe(transfer);
      expect(probe.video?.colorPrimaries).toBe('bt2020');
      expect(probe.video?.frameCount).toBe(25);
      expect(probe.audio).toMatchObject({ index: 1, codecName: 'aac' });
      expect(probe.audio?.bitrate).toBeGreaterThan(0);
    }
  });

  it('reads the SDR clips: codecs, containers, the display matrix of an upright phone', () => {
    expect(probeOf('h264-aac').video).toMatchObject({ codecName: 'h264', pixelFormat: 'yuv420p', colorTransfer: 'sdr', rotation: 0 });
    expect(probeOf('h264-aac').video?.bitrate).toBeGreaterThan(0);
    expect(probeOf('vp9-opus')).toMatchObject({ formatLongName: 'Matroska / WebM', video: { codecName: 'vp9', width: 320, height: 180 } });
    // Matroska says no per-stream bitrate.
    expect(probeOf('vp9-opus').video?.bitrate).toBe(0);
    expect(probeOf('vp9-opus').audio?.codecName).toBe('opus');
    expect(probeOf('h264-pcm').audio?.codecName).toBe('pcm_s16le');
    expect(probeOf('hevc-portrait').video).toMatchObject({ codecName: 'hevc', width: 640, height: 360, rotation: -90 });
    expect(probeOf('h264-ts')).toMatchObject({ formatName: 'mpegts', video: { codecName: 'h264' }, audio: { codecName: 'aac' } });
    expect(probeOf('h264-1080p')).toMatchObject({ video: { width: 1920, height: 1080 } });
    expect(probeOf('h264-1080p').audio).toBeUndefined();
  });

  it('reads a video from an http URL (as a presigned S3 URL), by ranges', async () => {
    const bytes = makeClip('hevc-hlg').bytes;
    const server: Server = createServer((request, response) => {
      const range = /bytes=(\d+)-(\d*)/.exec(request.headers.range ?? '');
      const start = range ? Number(range[1]) : 0;
      const end = range?.[2] ? Number(range[2]) : bytes.length - 1;
      response.writeHead(range ? 206 : 200, {
        'content-type': 'video/quicktime',
        'accept-ranges': 'bytes',
        'content-length': end - start + 1,
        ...(range ? { 'content-range': `bytes ${start}-${end}/${bytes.length}` } : {}),
      });
      response.end(bytes.subarray(start, end + 1));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const probe = await probeVideo(`http://127.0.0.1:${port}/clip.mov?X-Amz-Signature=abc`);
      expect(probe).toEqual(probeOf('hevc-hlg'));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('rejects what is not a video, with ffprobe’s reason', async () => {
    const path = join(folder, 'not-a-video.mp4');
    writeFileSync(path, 'not a video at all');
    await expect(probeVideo(path)).rejects.toThrow(/ffprobe \(exit 1\): .*Invalid data/);
  });

  it('follows Immich’s stream choice and fields on ffprobe output', () => {
    const probe = parseProbe({
      format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', format_long_name: 'QuickTime / MOV', duration: '3.5', bit_rate: '900' },
      streams: [
        { index: 0, codec_type: 'video', codec_name: 'mjpeg', width: 100, height: 100, disposition: { default: 1, attached_pic: 1 } },
        { index: 1, codec_type: 'video', codec_name: 'h264', width: 640, height: 480, bit_rate: '5000', disposition: { default: 0 } },
        // Anamorphic: 1440 stored, 16:9 shown; the default stream wins over a higher bitrate; `rotate` tag of 90 (clockwise).
        {
          index: 2,
          codec_type: 'video',
          codec_name: 'h265',
          width: 1440,
          height: 1080,
          display_aspect_ratio: '16:9',
          bit_rate: '100',
          pix_fmt: '',
          disposition: { default: 1 },
          tags: { rotate: '90' },
        },
        { index: 3, codec_type: 'audio', codec_name: 'ac3', bit_rate: '640000', disposition: { default: 0 } },
        { index: 4, codec_type: 'audio', codec_name: 'aac', bit_rate: '128000', disposition: { default: 1 } },
      ],
    });
    expect(probe).toMatchObject({ duration: 3.5, bitrate: 900, audio: { index: 4, codecName: 'aac', bitrate: 128_000 } });
    expect(probe.video).toMatchObject({ index: 2, codecName: 'hevc', width: 1920, height: 1080, pixelFormat: 'yuv420p', rotation: -90 });
    const matrix = parseProbe({
      streams: [
        { index: 0, codec_type: 'video', width: 4, height: 2, side_data_list: [{ side_data_type: 'Display Matrix', rotation: 180 }] },
      ],
    });
    expect(matrix.video?.rotation).toBe(180);
  });
});

describe('decideTranscode', () => {
  const row = (target: TranscodeTarget, remux = false) => ({ target, remux, needed: target !== 'none' || remux });

  it('under the default settings (required): HEVC, HDR 10-bit, VP9 re-encoded; PCM audio; MPEG-TS remuxed; H.264/AAC kept', () => {
    const expected: Record<string, ReturnType<typeof row>> = {
      'hevc-hlg': row('video'),
      'hevc-pq': row('video'),
      'h264-aac': row('none'),
      'vp9-opus': row('video'),
      'h264-pcm': row('audio'),
      'hevc-portrait': row('video'),
      'h264-ts': row('none', true),
      'h264-1080p': row('none'),
    };
    for (const name of names) expect([name, decideTranscode(defaults(), probeOf(name))]).toMatchObject([name, expected[name]]);
    expect(decideTranscode(defaults(), probeOf('hevc-hlg')).reason).toBe('video codec hevc not accepted; pixel format yuv420p10le');
    expect(decideTranscode(defaults(), probeOf('h264-pcm')).reason).toBe('audio codec pcm_s16le not accepted');
    expect(decideTranscode(defaults(), probeOf('h264-ts')).reason).toBe('container mpegts not accepted');
    expect(decideTranscode(defaults(), probeOf('h264-aac')).reason).toBe('accepted as is');
  });

  it('accepts an Opus stream under v1.100’s `libopus` spelling of the settings, and v3’s `opus`', () => {
    expect(defaults().acceptedAudioCodecs).toContain('libopus');
    const h264Opus = { ...probeOf('vp9-opus'), video: { ...probeOf('h264-aac').video!, bitrate: 0 } };
    expect(decideTranscode(defaults(), h264Opus)).toMatchObject(row('none'));
    expect(decideTranscode(settings({ acceptedAudioCodecs: ['aac', 'opus'] }), h264Opus)).toMatchObject(row('none'));
    expect(decideTranscode(settings({ acceptedAudioCodecs: ['aac'] }), h264Opus)).toMatchObject(row('audio'));
  });

  it('policy all: every stream re-encoded (audio only where there is audio)', () => {
    for (const name of names) {
      const hasAudio = probeOf(name).audio !== undefined;
      expect([name, decideTranscode(settings({ transcode: 'all' }), probeOf(name))]).toMatchObject([
        name,
        row(hasAudio ? 'all' : 'video', name === 'h264-ts'),
      ]);
    }
  });

  it('policy optimal: also what is larger than the target resolution (the 1080p clip at 720, not at 1080 nor original)', () => {
    expect(decideTranscode(settings({ transcode: 'optimal' }), probeOf('h264-1080p'))).toMatchObject({
      ...row('video'),
      reason: 'larger than 720p',
    });
    expect(decideTranscode(settings({ transcode: 'optimal', targetResolution: '1080' }), probeOf('h264-1080p'))).toMatchObject(row('none'));
    expect(decideTranscode(settings({ transcode: 'optimal', targetResolution: 'original' }), probeOf('h264-1080p'))).toMatchObject(
      row('none'),
    );
    expect(decideTranscode(settings({ transcode: 'optimal' }), probeOf('h264-aac'))).toMatchObject(row('none'));
    expect(decideTranscode(settings({ transcode: 'optimal' }), probeOf('hevc-hlg'))).toMatchObject(row('video'));
    // Short side 360 against a 240 target.
    expect(decideTranscode(settings({ transcode: 'optimal', targetResolution: '240' }), probeOf('h264-aac'))).toMatchObject(row('video'));
  });

  it('policy bitrate: also a stream over maxBitrate (k, m or plain bits), never one whose bitrate is unknown', () => {
    const bitrate = probeOf('h264-aac').video?.bitrate ?? 0;
    expect(bitrate).toBeGreaterThan(100_000);
    const kbps = (delta: number) => `${Math.floor(bitrate / 1000) + delta}k`;
    expect(decideTranscode(settings({ transcode: 'bitrate', maxBitrate: kbps(-1) }), probeOf('h264-aac'))).toMatchObject(row('video'));
    expect(decideTranscode(settings({ transcode: 'bitrate', maxBitrate: kbps(+1) }), probeOf('h264-aac'))).toMatchObject(row('none'));
    expect(decideTranscode(settings({ transcode: 'bitrate', maxBitrate: String(bitrate - 1) }), probeOf('h264-aac'))).toMatchObject(
      row('video'),
    );
    expect(decideTranscode(settings({ transcode: 'bitrate', maxBitrate: '100m' }), probeOf('h264-aac'))).toMatchObject(row('none'));
    expect(decideTranscode(settings({ transcode: 'bitrate', maxBitrate: '0' }), probeOf('h264-aac'))).toMatchObject(row('none'));
    // PCM audio still, and the video over the limit too.
    expect(decideTranscode(settings({ transcode: 'bitrate', maxBitrate: kbps(-1) }), probeOf('h264-pcm'))).toMatchObject(row('all'));
    // MPEG-TS streams carry no bitrate: only the container counts.
    expect(decideTranscode(settings({ transcode: 'bitrate', maxBitrate: '1k' }), probeOf('h264-ts'))).toMatchObject(row('none', true));
  });

  it('policy disabled: nothing, not even a remux', () => {
    for (const name of names)
      expect([name, decideTranscode(settings({ transcode: 'disabled' }), probeOf(name))]).toMatchObject([name, row('none')]);
  });

  it('the accepted lists and containers decide: HEVC accepted but 10-bit still not; MPEG-TS accepted', () => {
    const hevcToo = settings({ acceptedVideoCodecs: ['h264', 'hevc'] });
    expect(decideTranscode(hevcToo, probeOf('hevc-portrait'))).toMatchObject(row('none'));
    expect(decideTranscode(hevcToo, probeOf('hevc-hlg'))).toMatchObject({ ...row('video'), reason: 'pixel format yuv420p10le' });
    expect(decideTranscode(settings({ acceptedContainers: ['mov', 'mpegts'] }), probeOf('h264-ts'))).toMatchObject(row('none'));
    // A WebM (Matroska) container is `webm`: not accepted once the list drops it.
    expect(
      decideTranscode(settings({ acceptedVideoCodecs: ['h264', 'vp9'], acceptedContainers: ['mov'] }), probeOf('vp9-opus')),
    ).toMatchObject(row('none', true));
  });

  it('a probe without a video stream, or without dimensions, needs nothing and says why', () => {
    expect(decideTranscode(defaults(), { ...probeOf('h264-aac'), video: undefined })).toEqual({
      target: 'none',
      remux: false,
      needed: false,
      reason: 'no video stream',
    });
    const noSize = { ...probeOf('hevc-hlg'), video: { ...probeOf('hevc-hlg').video!, width: 0 } };
    expect(decideTranscode(defaults(), noSize)).toMatchObject({ needed: false, reason: 'no video dimensions' });
  });

  it('an Android motion photo’s embedded HEVC video is re-encoded', async () => {
    const video = makeClip('hevc-motion').bytes;
    const photo = makeMotionPhoto(makeJpeg({ width: 64, height: 48 }), video);
    const embedded = motionVideoOf(photo);
    expect(embedded?.equals(video)).toBe(true);
    const path = join(folder, 'motion.mp4');
    writeFileSync(path, embedded ?? Buffer.alloc(0));
    const probe = await probeVideo(path);
    expect(probe.video).toMatchObject({ codecName: 'hevc', pixelFormat: 'yuv420p', width: 480, height: 270 });
    expect(decideTranscode(defaults(), probe)).toMatchObject({ ...row('video'), reason: 'video codec hevc not accepted' });
  });
});

describe('ffmpegArgs', () => {
  it('the default command for an HLG HEVC clip: Immich’s, with -vsync and the stock tone-mapping chain', () => {
    const [pass, ...more] = ffmpegArgs('in.mov', 'out.mp4', defaults(), probeOf('hevc-hlg'));
    expect(more).toEqual([]);
    expect(pass).toEqual([
      ...['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error', '-y', '-i', 'in.mov'],
      ...['-c:v', 'libx264', '-c:a', 'copy', '-map', '0:0', '-map_metadata', '-1', '-map', '0:1'],
      ...['-preset', 'ultrafast', '-crf', '23', '-movflags', 'faststart', '-vsync', 'passthrough'],
      '-vf',
      'zscale=tin=arib-std-b67:pin=bt2020:min=2020_ncl:t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv,format=yuv420p',
      ...['-color_primaries', 'bt709', '-color_trc', 'bt709', '-colorspace', 'bt709'],
      ...['-f', 'mp4', 'out.mp4'],
    ]);
  });

  it('scales by the short side (vertical: width), formats 10-bit without tone mapping, downmixes re-encoded audio', () => {
    const args = (change: Partial<FfmpegSettings>, name: TranscodeFixture) =>
      ffmpegArgs('i', 'o', settings(change), probeOf(name))[0] ?? [];
    const vf = (list: string[]) => list[list.indexOf('-vf') + 1];
    expect(vf(args({ transcode: 'optimal' }, 'h264-1080p'))).toBe('scale=-2:720');
    expect(vf(args({ targetResolution: '241' }, 'hevc-portrait'))).toBe('scale=240:-2');
    expect(vf(args({ tonemap: 'disabled' }, 'hevc-pq'))).toBe('format=yuv420p');
    expect(vf(args({ tonemap: 'mobius' }, 'hevc-pq'))).toContain('zscale=tin=smpte2084:');
    expect(vf(args({ tonemap: 'mobius' }, 'hevc-pq'))).toContain('tonemap=tonemap=mobius:desat=0');
    expect(args({}, 'hevc-portrait')).not.toContain('-vf');
    const audio = args({}, 'h264-pcm');
    expect(audio.slice(audio.indexOf('-c:v'), audio.indexOf('-c:v') + 4)).toEqual(['-c:v', 'copy', '-c:a', 'aac']);
    expect(audio).toContain('-ac');
    expect(audio).not.toContain('-vf');
    expect(args({}, 'vp9-opus').slice(-5, -1)).toEqual(['-strict', 'experimental', '-f', 'mp4']);
  });

  it('bitrate, two-pass, B-frames, refs, GOP, threads and the other codecs as Immich’s configs', () => {
    const one = (change: Partial<FfmpegSettings>, options = {}) =>
      ffmpegArgs('i', 'o', settings({ transcode: 'all', ...change }), probeOf('h264-aac'), options);
    const joined = (change: Partial<FfmpegSettings>, options = {}) => one(change, options).map((pass) => pass.join(' '));
    expect(joined({ maxBitrate: '4500k' })[0]).toContain('-crf 23 -maxrate 4500k -bufsize 9000k');
    expect(joined({ maxBitrate: '10M', cqMode: 'cqp' })[0]).toContain('-q:v 23 -maxrate 10M -bufsize 20M');
    const [first, second] = joined({ maxBitrate: '4500', twoPass: true });
    expect(first).toContain('-b:v 3104k -minrate 1552k -maxrate 4500k');
    expect(first).toMatch(/-pass 1 -passlogfile o -f null \/dev\/null$/);
    expect(second).toMatch(/-pass 2 -passlogfile o -f mp4 o$/);
    expect(joined({ twoPass: true })).toHaveLength(1);
    expect(joined({ bframes: 2, refs: 3, gopSize: 60 })[0]).toContain('-bf 2 -refs 3 -g 60');
    expect(joined({}, { threads: 1 })[0]).toContain('-threads 1');
    expect(joined({ threads: 4 })[0]).toContain('-threads 4');
    expect(joined({ targetVideoCodec: 'hevc' })[0]).toContain('-c:v libx265');
    expect(joined({ targetVideoCodec: 'hevc' })[0]).toContain('-tag:v hvc1');
    expect(joined({ targetVideoCodec: 'vp9', preset: 'ultrafast' })[0]).toContain('-cpu-used 5 -crf 23 -b:v 0k -row-mt 1');
    expect(joined({ targetVideoCodec: 'vp9', twoPass: true })).toHaveLength(2);
    expect(joined({ targetVideoCodec: 'av1', preset: 'medium' })[0]).toContain('-c:v libaom-av1');
    expect(joined({ targetVideoCodec: 'av1', preset: 'medium' })[0]).toContain('-cpu-used 3 -crf 23 -b:v 0 -row-mt 1');
    expect(joined({ targetAudioCodec: 'libopus' })[0]).toContain('-c:a libopus');
    expect(() => one({ targetVideoCodec: 'mpeg2' })).toThrow("Codec 'mpeg2' is unsupported");
  });
});

describe('the fixtures', () => {
  it('are small, and ffprobe sees what a phone records (independently of probeVideo)', async () => {
    for (const name of names) expect([name, makeClip(name).bytes.length < 2_000_000]).toEqual([name, true]);
    const portrait = await ffprobe(fixture('hevc-portrait'));
    expect(Math.abs(portrait.rotation)).toBe(90);
    const hlg = await ffprobe(fixture('hevc-hlg'));
    expect(hlg.video).toMatchObject({
      codec_name: 'hevc',
      pix_fmt: 'yuv420p10le',
      color_transfer: 'arib-std-b67',
      codec_tag_string: 'hvc1',
    });
  });
});

describe('encodeVideo', () => {
  let count = 0;
  /** Encodes a fixture under the settings; ffprobe's view of the output. */
  const encode = async (name: TranscodeFixture, change: Partial<FfmpegSettings> = {}, options = {}) => {
    const output = join(folder, `encoded-${++count}-${name}.mp4`);
    await encodeVideo(fixture(name), output, settings(change), probeOf(name), options);
    return { output, ...(await ffprobe(output)) };
  };
  const duration = (name: TranscodeFixture) => probeOf(name).duration;

  it('HLG and PQ HEVC 10-bit: H.264 yuv420p tone-mapped to BT.709, the AAC copied, the size and duration kept', async () => {
    for (const name of ['hevc-hlg', 'hevc-pq'] as const) {
      const out = await encode(name);
      expect(out.format.format_name).toContain('mp4');
      expect(out.video).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p', width: 640, height: 360 });
      expect(out.video).toMatchObject({ color_transfer: 'bt709', color_primaries: 'bt709', color_space: 'bt709' });
      expect(out.audio).toMatchObject({ codec_name: 'aac', channels: 1 });
      expect(Math.abs(Number(out.format.duration) - duration(name))).toBeLessThanOrEqual(0.1);
      expect(out.streams).toBe(2);
    }
  });

  it('an upright phone’s HEVC: turned upright (portrait size), no rotation left; scaled by its width when above the target', async () => {
    const out = await encode('hevc-portrait');
    expect(out.video).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p', width: 360, height: 640 });
    expect(out.rotation).toBe(0);
    const smaller = await encode('hevc-portrait', { targetResolution: '240' });
    expect(smaller.video).toMatchObject({ width: 240, height: 426 });
    expect(smaller.rotation).toBe(0);
    expect(Math.abs(Number(smaller.format.duration) - duration('hevc-portrait'))).toBeLessThanOrEqual(0.1);
  });

  it('1080p under optimal: 1280×720', async () => {
    const out = await encode('h264-1080p', { transcode: 'optimal' });
    expect(out.video).toMatchObject({ codec_name: 'h264', width: 1280, height: 720 });
    expect(out.audio).toBeUndefined();
    expect(Math.abs(Number(out.format.duration) - duration('h264-1080p'))).toBeLessThanOrEqual(0.1);
  });

  it('PCM audio: re-encoded to AAC stereo, the H.264 copied', async () => {
    const out = await encode('h264-pcm');
    expect(out.audio).toMatchObject({ codec_name: 'aac', channels: 2 });
    expect(out.video).toMatchObject({ codec_name: 'h264', width: 640, height: 360, bit_rate: String(probeOf('h264-pcm').video?.bitrate) });
  });

  it('VP9 with Opus: H.264, the Opus copied into the MP4', async () => {
    const out = await encode('vp9-opus');
    expect(out.video).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p', width: 320, height: 180 });
    expect(out.audio).toMatchObject({ codec_name: 'opus' });
    expect(Math.abs(Number(out.format.duration) - duration('vp9-opus'))).toBeLessThanOrEqual(0.1);
  });

  it('MPEG-TS: both streams copied into MP4', async () => {
    const out = await encode('h264-ts');
    expect(out.format.format_name).toContain('mp4');
    expect(out.video).toMatchObject({ codec_name: 'h264', width: 640, height: 360 });
    expect(out.audio).toMatchObject({ codec_name: 'aac', channels: 1 });
  });

  it('HEVC target (hvc1-tagged), and two passes under a bitrate limit that leave no logs behind', async () => {
    const hevc = await encode('h264-aac', { transcode: 'all', targetVideoCodec: 'hevc' }, { threads: 1 });
    expect(hevc.video).toMatchObject({ codec_name: 'hevc', codec_tag_string: 'hvc1', pix_fmt: 'yuv420p' });
    expect(hevc.audio).toMatchObject({ codec_name: 'aac', channels: 2 });
    const twoPass = await encode('h264-aac', { transcode: 'all', twoPass: true, maxBitrate: '300k' });
    expect(twoPass.video).toMatchObject({ codec_name: 'h264' });
    expect(Number(twoPass.video?.bit_rate)).toBeLessThan(probeOf('h264-aac').video?.bitrate ?? 0);
    expect(readdirSync(folder).filter((file) => file.includes('.log'))).toEqual([]);
    expect(existsSync(twoPass.output)).toBe(true);
  });

  it('fails with ffmpeg’s own words, and within its timeout', async () => {
    const broken = { ...probeOf('h264-aac'), video: { ...probeOf('h264-aac').video!, index: 7 } };
    await expect(encodeVideo(fixture('h264-aac'), join(folder, 'broken.mp4'), settings({ transcode: 'all' }), broken)).rejects.toThrow(
      /^ffmpeg \(exit 1\): .*0:7/,
    );
    await expect(
      encodeVideo(
        fixture('h264-1080p'),
        join(folder, 'slow.mp4'),
        settings({ transcode: 'all', preset: 'veryslow' }),
        probeOf('h264-1080p'),
        {
          timeoutMs: 1,
        },
      ),
    ).rejects.toThrow(/^ffmpeg \(timed out after 1 ms\)/);
  });
});
