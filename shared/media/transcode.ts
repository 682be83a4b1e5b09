/**
 * Video transcoding as Immich's (docs/media.md, "Video transcoding"; docs/immich-compatibility.md,
 * "Video"): probe a video's streams with ffprobe, decide from the `ffmpeg` settings whether it
 * needs an encoded version (the `transcode` policy, the accepted codecs and containers, the target
 * resolution and bitrate), and make it with ffmpeg by Immich's software command.
 *
 * Our ffmpeg (@ffmpeg-installer's 2018/2019 builds) predates two things Immich's command uses:
 * `-fps_mode passthrough` is spelled `-vsync passthrough`, and Jellyfin's `tonemapx` filter is the
 * stock zscale + tonemap chain (HLG/PQ sources only), the output tagged BT.709. Encoders are named
 * (libx264, libx265, libvpx-vp9, libaom-av1) rather than left to ffmpeg's choice by codec; AV1
 * uses libaom-av1 where the build has it (this machine's x64 build; not the arm64 one Lambda runs)
 * since no build of ours has libsvtav1, and fails with a clear message where it has neither.
 */
import { rm } from 'node:fs/promises';
import type { SystemConfig } from '../model/config.ts';
import { binaryEnvironment, ffmpegPath, ffprobePath } from './binaries.ts';

export type FfmpegSettings = SystemConfig['ffmpeg'];

export interface VideoStreamInfo {
  index: number;
  /** The display height, and the display width (the stored width scaled by the sample aspect ratio). */
  width: number;
  height: number;
  /** ffprobe's name, `h265` said `hevc`. */
  codecName: string;
  pixelFormat: string;
  /** Bits per second; 0 when the container does not say (Matroska/WebM streams). */
  bitrate: number;
  /** Degrees counter-clockwise as ffprobe reports the display matrix (an upright phone: -90), 0 when none. */
  rotation: number;
  colorTransfer: 'pq' | 'hlg' | 'sdr';
  frameCount: number;
  /** ffprobe's colour primaries and matrix names, '' when untagged. */
  colorPrimaries?: string;
  colorSpace?: string;
}

export interface AudioStreamInfo {
  index: number;
  codecName: string;
  bitrate: number;
  channels?: number;
}

export interface VideoProbe {
  formatName: string;
  formatLongName: string;
  /** Seconds. */
  duration: number;
  bitrate: number;
  /** The chosen streams, by Immich's order: the default one first, then the highest bitrate. */
  video?: VideoStreamInfo;
  audio?: AudioStreamInfo;
}

export type TranscodeTarget = 'none' | 'audio' | 'video' | 'all';

export interface TranscodeDecision {
  target: TranscodeTarget;
  /** The container is not accepted: streams copied (or encoded) into MP4 even when `target` is 'none'. */
  remux: boolean;
  /** An encoded version is wanted. */
  needed: boolean;
  reason: string;
}

// --- Probing ---

interface FfprobeStream {
  index: number;
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  display_aspect_ratio?: string;
  pix_fmt?: string;
  bit_rate?: string;
  nb_frames?: string;
  color_transfer?: string;
  color_primaries?: string;
  color_space?: string;
  channels?: number;
  disposition?: { default?: number; attached_pic?: number };
  tags?: Record<string, string>;
  side_data_list?: { side_data_type?: string; rotation?: number | string }[];
}

interface FfprobeOutput {
  streams?: FfprobeStream[];
  format?: { format_name?: string; format_long_name?: string; duration?: string; bit_rate?: string };
}

/** Immich's lenient integers: anything unparsable is 0. */
const int = (value: unknown): number => Number.parseInt(String(value), 10) || 0;

/** The display aspect ratio `w:h` as a number, when both are non-zero. */
const aspect = (value: string | undefined): number | undefined => {
  const [w, h] = (value ?? '').split(':').map(Number);
  return w && h ? w / h : undefined;
};

/** Default streams first, then by bitrate, highest first (Immich's order). */
const byPreference = (a: FfprobeStream, b: FfprobeStream): number =>
  (b.disposition?.default ?? 0) - (a.disposition?.default ?? 0) || int(b.bit_rate) - int(a.bit_rate);

/** The display matrix's rotation (ffprobe ≥ 5 reports it as side data), else the `rotate` tag (older writers, counted the other way). */
const rotationOf = (stream: FfprobeStream): number => {
  const matrix = stream.side_data_list?.find((data) => data.side_data_type === 'Display Matrix' && data.rotation !== undefined);
  if (matrix) return int(matrix.rotation);
  const tag = int(stream.tags?.rotate);
  if (!tag) return 0;
  const counterClockwise = -tag % 360;
  return counterClockwise > 180 ? counterClockwise - 360 : counterClockwise <= -180 ? counterClockwise + 360 : counterClockwise;
};

const transferOf = (name: string | undefined): VideoStreamInfo['colorTransfer'] =>
  name === 'smpte2084' ? 'pq' : name === 'arib-std-b67' ? 'hlg' : 'sdr';

/** The probe of ffprobe's JSON output, as Immich's MediaRepository.probe reads it. */
export const parseProbe = (output: FfprobeOutput): VideoProbe => {
  const streams = output.streams ?? [];
  const [video] = streams.filter((s) => s.codec_type === 'video' && !s.disposition?.attached_pic).sort(byPreference);
  const [audio] = streams.filter((s) => s.codec_type === 'audio').sort(byPreference);
  const format = output.format ?? {};
  const probe: VideoProbe = {
    formatName: format.format_name ?? '',
    formatLongName: format.format_long_name ?? '',
    duration: Number.parseFloat(format.duration ?? '') || 0,
    bitrate: int(format.bit_rate),
  };
  if (video) {
    const height = int(video.height);
    const dar = aspect(video.display_aspect_ratio);
    probe.video = {
      index: video.index,
      width: dar ? Math.round(height * dar) : int(video.width),
      height,
      codecName: video.codec_name === 'h265' ? 'hevc' : (video.codec_name ?? ''),
      pixelFormat: video.pix_fmt || 'yuv420p',
      bitrate: int(video.bit_rate),
      rotation: rotationOf(video),
      colorTransfer: transferOf(video.color_transfer),
      frameCount: int(video.nb_frames),
      colorPrimaries: video.color_primaries ?? '',
      colorSpace: video.color_space ?? '',
    };
  }
  if (audio) {
    probe.audio = { index: audio.index, codecName: audio.codec_name ?? '', bitrate: int(audio.bit_rate), channels: int(audio.channels) };
  }
  return probe;
};

const maxOutput = 64 * 1024 * 1024;

/** The last lines of a program's error output, for an error message. */
const tail = (stderr: string, lines = 5): string => stderr.trim().split('\n').slice(-lines).join(' | ');

const run = (binary: string, args: string[], timeoutMs: number): Promise<string> =>
  new Promise((resolve, reject) => {
    const options = { encoding: 'utf8' as const, maxBuffer: maxOutput, timeout: timeoutMs, env: binaryEnvironment() };
    // node:child_process (with the net and dgram handles it loads) is loaded on the first video, not
    // at the media function's cold start: photos never run ffmpeg (docs/benchmarks.md, "The
    // background backup path").
    process.getBuiltinModule('node:child_process').execFile(binary, args, options, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      const name = binary.split('/').pop();
      const why = error.killed ? `timed out after ${timeoutMs} ms` : `exit ${error.code ?? error.signal ?? '?'}`;
      reject(new Error(`${name} (${why}): ${tail(stderr) || error.message}`));
    });
  });

/**
 * A video's format and its chosen video and audio streams, by ffprobe (`-show_format
 * -show_streams`, JSON). `input` is a path or an http(s) URL (an S3 presigned URL, read by ranges).
 */
export const probeVideo = async (input: string, options: { timeoutMs?: number } = {}): Promise<VideoProbe> => {
  const stdout = await run(
    await ffprobePath(),
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', input],
    options.timeoutMs ?? 120_000,
  );
  return parseProbe(JSON.parse(stdout) as FfprobeOutput);
};

// --- The decision (Immich's MediaService: getTranscodeTarget, is*TranscodeRequired, isRemuxRequired) ---

/** v1.100 spells Opus `libopus` in the settings; ffprobe (and v3) say `opus`. */
const audioCodecName = (name: string): string => (name === 'libopus' ? 'opus' : name);

/** `maxBitrate` in bits per second: `NNk`, `NNm`, or a plain number; anything else is no limit. */
export const maxBitrateBps = (maxBitrate: string): number => {
  const value = Number.parseInt(maxBitrate, 10);
  if (Number.isNaN(value)) return 0;
  const unit = maxBitrate.trim().toLowerCase().slice(-1);
  return unit === 'k' ? value * 1000 : unit === 'm' ? value * 1_000_000 : value;
};

const policies = ['all', 'optimal', 'bitrate', 'required', 'disabled'];

const audioReasons = (ffmpeg: FfmpegSettings, audio: AudioStreamInfo | undefined): string[] => {
  if (!audio || ffmpeg.transcode === 'disabled') return [];
  if (ffmpeg.transcode === 'all') return ['policy all'];
  const accepted = ffmpeg.acceptedAudioCodecs.map(audioCodecName);
  return accepted.includes(audioCodecName(audio.codecName)) ? [] : [`audio codec ${audio.codecName || 'unknown'} not accepted`];
};

const videoReasons = (ffmpeg: FfmpegSettings, video: VideoStreamInfo): string[] => {
  if (ffmpeg.transcode === 'disabled') return [];
  if (ffmpeg.transcode === 'all') return ['policy all'];
  const reasons: string[] = [];
  if (!ffmpeg.acceptedVideoCodecs.includes(video.codecName)) reasons.push(`video codec ${video.codecName || 'unknown'} not accepted`);
  if (!video.pixelFormat.endsWith('420p')) reasons.push(`pixel format ${video.pixelFormat}`);
  if (ffmpeg.transcode === 'optimal' && ffmpeg.targetResolution !== 'original') {
    const target = Number.parseInt(ffmpeg.targetResolution, 10);
    if (Math.min(video.width, video.height) > target) reasons.push(`larger than ${ffmpeg.targetResolution}p`);
  }
  if (ffmpeg.transcode === 'bitrate') {
    const max = maxBitrateBps(ffmpeg.maxBitrate);
    if (max > 0 && video.bitrate > max) reasons.push(`bitrate ${video.bitrate} over ${max}`);
  }
  return reasons;
};

/** The container's name by Immich's rule: MP4 and MOV are `mov`, Matroska `webm`, else ffprobe's format name. */
const containerOf = (probe: VideoProbe): string =>
  ({ 'QuickTime / MOV': 'mov', 'Matroska / WebM': 'webm' })[probe.formatLongName] ?? probe.formatName;

const remuxRequired = (ffmpeg: FfmpegSettings, probe: VideoProbe): boolean => {
  if (ffmpeg.transcode === 'disabled') return false;
  const name = containerOf(probe);
  return name !== 'mp4' && !ffmpeg.acceptedContainers.includes(name);
};

/**
 * Whether a video needs an encoded version under the settings, and what is re-encoded: Immich's
 * rule (docs/media.md). HDR alone is no reason; an HDR stream that is re-encoded is tone-mapped.
 * A probe without a video stream, or without its dimensions, needs nothing (Immich fails the job:
 * the reason says which).
 */
export const decideTranscode = (ffmpeg: FfmpegSettings, probe: VideoProbe): TranscodeDecision => {
  if (!policies.includes(ffmpeg.transcode)) throw new Error(`Unsupported transcode policy: ${ffmpeg.transcode}`);
  const { video, audio } = probe;
  if (!video) return { target: 'none', remux: false, needed: false, reason: 'no video stream' };
  if (!video.width || !video.height) return { target: 'none', remux: false, needed: false, reason: 'no video dimensions' };
  const forVideo = videoReasons(ffmpeg, video);
  const forAudio = audioReasons(ffmpeg, audio);
  const target: TranscodeTarget =
    forVideo.length && forAudio.length ? 'all' : forAudio.length ? 'audio' : forVideo.length ? 'video' : 'none';
  const remux = remuxRequired(ffmpeg, probe);
  const reasons = [...new Set([...forVideo, ...forAudio, ...(remux ? [`container ${containerOf(probe) || 'unknown'} not accepted`] : [])])];
  if (ffmpeg.transcode === 'disabled') reasons.push('policy disabled');
  return { target, remux, needed: target !== 'none' || remux, reason: reasons.join('; ') || 'accepted as is' };
};

// --- The command (Immich's BaseConfig and its H264/HEVC/VP9/AV1 configs, software) ---

const presets = ['veryslow', 'slower', 'slow', 'medium', 'fast', 'faster', 'veryfast', 'superfast', 'ultrafast'];

/** The software encoder for a target codec (what ffmpeg picks for Immich's `-c:v <codec>`, named). */
export const videoEncoder = (codec: string): string => {
  const encoder = ({ h264: 'libx264', hevc: 'libx265', vp9: 'libvpx-vp9', av1: 'libaom-av1' } as Record<string, string>)[codec];
  if (!encoder) throw new Error(`Codec '${codec}' is unsupported`);
  return encoder;
};

const audioEncoder = (codec: string): string => (codec === 'opus' || codec === 'libopus' ? 'libopus' : codec);

interface Bitrates {
  max: number;
  target: number;
  min: number;
  unit: string;
}

const bitrates = (ffmpeg: FfmpegSettings): Bitrates => {
  const max = Number.parseInt(ffmpeg.maxBitrate, 10) || 0;
  const target = Math.ceil(max / 1.45);
  return { max, target, min: target / 2, unit: ffmpeg.maxBitrate.trim().slice(String(max).length) || 'k' };
};

/** Two passes: H.264/HEVC when a bitrate limit is set (software only); VP9/AV1 whenever asked. */
const twoPass = (ffmpeg: FfmpegSettings): boolean =>
  ffmpeg.twoPass && (['vp9', 'av1'].includes(ffmpeg.targetVideoCodec) || bitrates(ffmpeg).max > 0);

const presetOptions = (ffmpeg: FfmpegSettings): string[] => {
  const index = presets.indexOf(ffmpeg.preset);
  switch (ffmpeg.targetVideoCodec) {
    case 'vp9':
      return index >= 0 ? ['-cpu-used', String(Math.min(index, 5))] : [];
    case 'av1':
      // libaom's speed 0..8 for Immich's nine presets (its libsvtav1 preset index + 4).
      return index >= 0 ? ['-cpu-used', String(index)] : [];
    default:
      return ['-preset', ffmpeg.preset];
  }
};

const bitrateOptions = (ffmpeg: FfmpegSettings): string[] => {
  const { max, target, min, unit } = bitrates(ffmpeg);
  const quality = [ffmpeg.cqMode === 'cqp' ? '-q:v' : '-crf', String(ffmpeg.crf)];
  const twoPassRates = ['-b:v', `${target}${unit}`, '-minrate', `${min}${unit}`, '-maxrate', `${max}${unit}`];
  switch (ffmpeg.targetVideoCodec) {
    case 'vp9':
      return max > 0 && twoPass(ffmpeg) ? twoPassRates : [...quality, '-b:v', `${max}${unit}`];
    case 'av1':
      // libaom: constant quality (-b:v 0), or constrained by the limit (libsvtav1's `mbr`).
      return ['-crf', String(ffmpeg.crf), '-b:v', max > 0 ? `${max}${unit}` : '0'];
    default:
      if (twoPass(ffmpeg)) return twoPassRates;
      return max > 0 ? [...quality, '-maxrate', `${max}${unit}`, '-bufsize', `${max * 2}${unit}`] : quality;
  }
};

const encoderOptions = (ffmpeg: FfmpegSettings, threads: number): string[] => {
  const threadOptions = threads > 0 ? ['-threads', String(threads)] : [];
  switch (ffmpeg.targetVideoCodec) {
    case 'h264':
      return threads === 1 ? [...threadOptions, '-x264-params', 'threads=1'] : threadOptions;
    case 'hevc':
      return [...threadOptions, '-x265-params', ['log-level=error', ...(threads === 1 ? ['frame-threads=1', 'pools=none'] : [])].join(':')];
    case 'vp9':
      return ['-row-mt', '1', ...threadOptions];
    case 'av1':
      return ['-row-mt', '1', ...threadOptions];
    default:
      return threadOptions;
  }
};

const isVertical = (video: VideoStreamInfo): boolean => video.height > video.width || Math.abs(video.rotation) === 90;

const targetResolution = (ffmpeg: FfmpegSettings, video: VideoStreamInfo): number => {
  const target =
    ffmpeg.targetResolution === 'original' ? Math.min(video.width, video.height) : Number.parseInt(ffmpeg.targetResolution, 10);
  return target % 2 === 0 ? target : target - 1;
};

/** The stock ffmpeg stand-in for Jellyfin's tonemapx: to linear light, tone-mapped, to BT.709 (limited range), 8-bit 4:2:0. */
const toneMapping = (ffmpeg: FfmpegSettings, video: VideoStreamInfo): string[] => {
  if (ffmpeg.tonemap === 'disabled' || video.colorTransfer === 'sdr') return [];
  const transfer = video.colorTransfer === 'pq' ? 'smpte2084' : 'arib-std-b67';
  const npl = ffmpeg.npl > 0 ? ffmpeg.npl : 100;
  return [
    `zscale=tin=${transfer}:pin=bt2020:min=2020_ncl:t=linear:npl=${npl}`,
    'format=gbrpf32le',
    'zscale=p=bt709',
    `tonemap=tonemap=${ffmpeg.tonemap}:desat=0`,
    'zscale=t=bt709:m=bt709:r=tv',
    'format=yuv420p',
  ];
};

const filters = (ffmpeg: FfmpegSettings, video: VideoStreamInfo): string[] => {
  const out: string[] = [];
  const target = targetResolution(ffmpeg, video);
  if (video.height % 2 !== 0 || video.width % 2 !== 0 || Math.min(video.width, video.height) > target) {
    out.push(`scale=${isVertical(video) ? `${target}:-2` : `-2:${target}`}`);
  }
  const toneMap = toneMapping(ffmpeg, video);
  if (toneMap.length) out.push(...toneMap);
  else if (!video.pixelFormat.endsWith('420p')) out.push('format=yuv420p');
  return out;
};

/**
 * The ffmpeg argument lists of the passes (one, or two for two-pass) that encode `input` into the
 * MP4 at `outputPath` under the settings: Immich's software command (docs/media.md). A video that
 * needs nothing is copied into MP4 (Immich's command for target none).
 */
export const ffmpegArgs = (
  input: string,
  outputPath: string,
  ffmpeg: FfmpegSettings,
  probe: VideoProbe,
  options: { threads?: number } = {},
): string[][] => {
  const { video, audio } = probe;
  if (!video) throw new Error('no video stream');
  const { target } = decideTranscode(ffmpeg, probe);
  const encodeVideo = target === 'all' || target === 'video';
  const encodeAudio = target === 'all' || target === 'audio';
  const threads = options.threads ?? ffmpeg.threads;
  const output = ['-c:v', encodeVideo ? videoEncoder(ffmpeg.targetVideoCodec) : 'copy'];
  output.push('-c:a', encodeAudio ? audioEncoder(ffmpeg.targetAudioCodec) : 'copy');
  output.push('-map', `0:${video.index}`, '-map_metadata', '-1');
  if (audio) {
    output.push('-map', `0:${audio.index}`);
    if (encodeAudio) output.push('-ac', '2');
  }
  if (ffmpeg.bframes > -1) output.push('-bf', String(ffmpeg.bframes));
  if (ffmpeg.refs > 0) output.push('-refs', String(ffmpeg.refs));
  if (ffmpeg.gopSize > 0) output.push('-g', String(ffmpeg.gopSize));
  if (ffmpeg.targetVideoCodec === 'hevc' && (encodeVideo || video.codecName === 'hevc')) output.push('-tag:v', 'hvc1');
  output.push(...presetOptions(ffmpeg), ...bitrateOptions(ffmpeg), ...encoderOptions(ffmpeg, threads));
  output.push('-movflags', 'faststart', '-vsync', 'passthrough');
  if (encodeVideo) {
    const chain = filters(ffmpeg, video);
    if (chain.length) output.push('-vf', chain.join(','));
    if (toneMapping(ffmpeg, video).length) output.push('-color_primaries', 'bt709', '-color_trc', 'bt709', '-colorspace', 'bt709');
  }
  // ffmpeg 4.1 calls Opus in MP4 (copied) and libaom-av1 experimental.
  const opusCopied = audio && !encodeAudio && audioCodecName(audio.codecName) === 'opus';
  if (opusCopied || (encodeVideo && ffmpeg.targetVideoCodec === 'av1')) output.push('-strict', 'experimental');
  const head = ['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error', '-y', '-i', input];
  if (!twoPass(ffmpeg) || !encodeVideo) return [[...head, ...output, '-f', 'mp4', outputPath]];
  return [
    [...head, ...output, '-pass', '1', '-passlogfile', outputPath, '-f', 'null', '/dev/null'],
    [...head, ...output, '-pass', '2', '-passlogfile', outputPath, '-f', 'mp4', outputPath],
  ];
};

let encoders: Promise<string> | undefined;

const hasEncoder = async (name: string): Promise<boolean> => {
  encoders ??= ffmpegPath().then((binary) => run(binary, ['-hide_banner', '-encoders'], 30_000));
  return new RegExp(`^\\s*\\S+\\s+${name.replace(/[-]/g, '\\-')}\\s`, 'm').test(await encoders);
};

/**
 * Encodes `input` (a path or an http(s) URL) into the MP4 file `outputPath` by {@link ffmpegArgs}:
 * one or two passes, each within `timeoutMs`; `threads` overrides the settings' (0: ffmpeg's
 * choice). Two-pass logs are removed whatever happens; a failure says ffmpeg's last lines.
 */
export const encodeVideo = async (
  input: string,
  outputPath: string,
  ffmpeg: FfmpegSettings,
  probe: VideoProbe,
  options: { timeoutMs?: number; threads?: number } = {},
): Promise<void> => {
  const binary = await ffmpegPath();
  const passes = ffmpegArgs(input, outputPath, ffmpeg, probe, options);
  const encoder = passes[0]?.[passes[0].indexOf('-c:v') + 1];
  if (encoder && encoder !== 'copy' && !(await hasEncoder(encoder))) {
    throw new Error(`ffmpeg: this build has no ${encoder} encoder for target codec ${ffmpeg.targetVideoCodec}`);
  }
  try {
    for (const args of passes) await run(binary, args, options.timeoutMs ?? 14 * 60_000);
  } finally {
    if (passes.length > 1) {
      await Promise.all(
        ['-0.log', '-0.log.mbtree', '-0.log.temp', '-0.log.mbtree.temp'].map((end) => rm(`${outputPath}${end}`, { force: true })),
      );
    }
  }
};
