/**
 * `npm run bench -- transcode transcode-cost`: how long Immich's default video conversion takes
 * with the ffmpeg we ship, per second of video, and what that means on Lambda (docs/media.md,
 * "Video transcoding"): seconds of Lambda per second of video by memory size, dollars per minute of
 * video beside MediaConvert's, and the longest video one invocation finishes within its safety
 * margin, which the stack sets as `TRANSCODE_LAMBDA_MAX_SECONDS`. `transcode-cost` writes the
 * library's monthly figure into docs/cost.md from the same measurement.
 *
 * The sources are what an iPhone records: HEVC Main 10, HLG (BT.2020), 30 fps, AAC, about 10 s,
 * at 1080p (15 Mb/s) and 4K (45 Mb/s). A test pattern with film-like noise keeps the bit rate
 * (and so the decoder's work) near a phone's. x265 makes one second of them and the container
 * repeats it (stream copy), which decodes as ten seconds do and costs a tenth of making them;
 * they are kept in .data/bench-transcode/.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpeg from '@ffmpeg-installer/ffmpeg';
import { table } from './stats.ts';

const root = join(import.meta.dirname, '..', '..');
const cache = join(root, '.data', 'bench-transcode');
const loops = 10;

interface Source {
  name: string;
  width: number;
  height: number;
  bitrate: string;
}

const sources: Source[] = [
  { name: '1080p HEVC HLG', width: 1920, height: 1080, bitrate: '15M' },
  { name: '4K HEVC HLG', width: 3840, height: 2160, bitrate: '45M' },
];

/** Lambda's price on arm64, us-east-1, per GB-second (the first tier). */
const lambdaPerGbSecond = 0.0000133334;
/** Lambda gives one vCPU per 1,769 MB and six at its largest size. */
const memorySizes = [1769, 3538, 5307, 10240];
const vcpus = (mb: number): number => (mb >= 10240 ? 6 : mb / 1769);
/**
 * Assumption, not measured: a Lambda arm64 (Graviton) core running the 2019 linux-arm64 ffmpeg
 * build needs 1.5× this machine's CPU-seconds for the same work (the build predates ffmpeg's
 * aarch64 optimisations). To be replaced by a run on Lambda.
 */
const gravitonFactor = 1.5;
/** The share of the 15-minute limit an encode may plan to use: the rest is download, upload and margin. */
const budgetSeconds = 12 * 60;
/**
 * MediaConvert's on-demand price per output minute, us-east-1, ≤30 fps, 720p output (HD). Not read
 * from AWS's live price page (its rate tables did not come through): the classic published rates.
 */
const mediaConvert = { basicHd: 0.015, proHd: 0.024 };

const run = (args: string[]): void => {
  execFileSync(ffmpeg.path, ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
};

/** The cached source, made once: one second by x265 (fast), repeated `loops` times by stream copy. */
const sourceFile = (source: Source): string => {
  const file = join(cache, `${source.width}x${source.height}-hlg-${loops}s.mov`);
  if (existsSync(file)) return file;
  mkdirSync(cache, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'bench-transcode-'));
  try {
    const second = join(work, 'second.mov');
    run([
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=${source.width}x${source.height}:rate=30:duration=1`,
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000:duration=1',
      '-vf',
      'noise=alls=6:allf=t',
      '-c:v',
      'libx265',
      '-preset',
      'fast',
      '-b:v',
      source.bitrate,
      '-pix_fmt',
      'yuv420p10le',
      '-x265-params',
      'log-level=error:colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc',
      '-color_primaries',
      'bt2020',
      '-color_trc',
      'arib-std-b67',
      '-colorspace',
      'bt2020nc',
      '-tag:v',
      'hvc1',
      '-c:a',
      'aac',
      '-ac',
      '2',
      '-shortest',
      second,
    ]);
    const looped = join(work, 'looped.mov');
    run(['-stream_loop', String(loops - 1), '-i', second, '-map', '0', '-c', 'copy', looped]);
    renameSync(looped, file);
    return file;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};

interface Timing {
  wall: number;
  cpu: number;
  bytes: number;
  stream: string;
}

/** One encode, pinned to `threads` cores (as a Lambda of that many vCPUs), timed by /usr/bin/time. */
const encode = async (input: string, threads: number): Promise<Timing> => {
  const { ffmpegArgs, probeVideo } = await import('#shared/media/transcode.ts');
  const { configDefaults } = await import('#shared/model/config.ts');
  const { binaryEnvironment } = await import('#shared/media/binaries.ts');
  const work = mkdtempSync(join(tmpdir(), 'bench-transcode-'));
  const output = join(work, 'encoded.mp4');
  // Immich's default command for this source (shared/media/transcode.ts; docs/media.md): target
  // `video` (HEVC is not accepted, AAC is, so the audio is copied), 720p H.264 ultrafast crf 23,
  // tone-mapped by the stock zscale chain; Immich's `ffmpeg.threads` as the run's threads.
  const passes = ffmpegArgs(input, output, configDefaults.ffmpeg, await probeVideo(input), { threads });
  const [args] = passes;
  if (passes.length !== 1 || !args) throw new Error('the default settings encode in one pass');
  const cores = Array.from({ length: threads }, (_, index) => index % availableParallelism()).join(',');
  try {
    const { wall, cpu } = await new Promise<{ wall: number; cpu: number }>((resolve, reject) => {
      const child = spawn('/usr/bin/time', ['-f', 'TIME %e %U %S', 'taskset', '-c', cores, ffmpeg.path, ...args], {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: binaryEnvironment(),
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.on('error', reject);
      child.on('close', (code) => {
        const line = /TIME ([\d.]+) ([\d.]+) ([\d.]+)/.exec(stderr);
        if (code !== 0 || !line) reject(new Error(`ffmpeg failed (${code}): ${stderr.slice(-500)}`));
        else resolve({ wall: Number(line[1]), cpu: Number(line[2]) + Number(line[3]) });
      });
    });
    const { video } = await probeVideo(output);
    return {
      wall,
      cpu,
      bytes: statSync(output).size,
      stream: video ? `${video.codecName} ${video.pixelFormat} ${video.width}×${video.height}` : 'no video',
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};

export interface SourceResult {
  source: Source;
  seconds: number;
  sourceMbps: number;
  one: Timing;
  two: Timing;
  /** CPU-seconds of this machine per second of video, one thread. */
  cpuPerSecond: number;
  /** The parallel efficiency of a doubling of threads, from the two runs (at most 0.9). */
  efficiency: number;
  /** Lambda seconds per second of video at each memory size. */
  lambda: { mb: number; perSecond: number; dollarsPerMinute: number; minutesPerInvocation: number }[];
  encodedMbPerMinute: number;
}

export interface Measurement {
  results: SourceResult[];
  load: number[];
  cpu: string;
  /** TRANSCODE_LAMBDA_MAX_SECONDS: the longest video of the heaviest source 10,240 MB finishes in the budget. */
  maxSeconds: number;
}

const measureSource = async (source: Source): Promise<SourceResult> => {
  const file = sourceFile(source);
  const { probeVideo } = await import('#shared/media/transcode.ts');
  const { duration: seconds } = await probeVideo(file);
  await encode(file, 2); // warm the page cache and the binary
  const one = await encode(file, 1);
  const two = await encode(file, 2);
  const cpuPerSecond = one.cpu / seconds;
  // The gain of a second thread: on a machine shared with other work the wall clock's speed-up
  // says more about the others than about ffmpeg, so the model takes the CPU time threads add
  // (their overhead), and never above 0.9 (x264 and the HEVC decoder scale sub-linearly).
  const efficiency = Math.min(0.9, one.cpu / two.cpu);
  const lambda = memorySizes.map((mb) => {
    const n = vcpus(mb);
    const speedup = n <= 1 ? n : n * efficiency ** Math.log2(n);
    const perSecond = (cpuPerSecond * gravitonFactor) / speedup;
    return {
      mb,
      perSecond,
      dollarsPerMinute: 60 * perSecond * (mb / 1024) * lambdaPerGbSecond,
      minutesPerInvocation: budgetSeconds / perSecond / 60,
    };
  });
  return {
    source,
    seconds,
    sourceMbps: (statSync(file).size * 8) / seconds / 1e6,
    one,
    two,
    cpuPerSecond,
    efficiency,
    lambda,
    encodedMbPerMinute: (one.bytes / 1e6 / seconds) * 60,
  };
};

let measured: Promise<Measurement> | undefined;
/** Measured once per process, for both sections. */
export const measureTranscode = (): Promise<Measurement> => {
  measured ??= (async () => {
    const results: SourceResult[] = [];
    for (const source of sources) results.push(await measureSource(source));
    const heaviest = results.map((result) => result.lambda.find((row) => row.mb === 10240)?.perSecond ?? 0);
    const perSecond = Math.max(...heaviest);
    return {
      results,
      load: loadavg(),
      cpu: `${cpus()[0]?.model ?? 'unknown'} × ${availableParallelism()}`,
      // Whole half-minutes, rounded down.
      maxSeconds: Math.floor(budgetSeconds / perSecond / 30) * 30,
    };
  })();
  return measured;
};

const money = (dollars: number): string => `$${dollars < 0.01 ? dollars.toFixed(4) : dollars.toFixed(3)}`;

const render = ({ results, load, cpu, maxSeconds }: Measurement): string => {
  const measuredRows = results.flatMap((result) =>
    [result.one, result.two].map((timing, index) => [
      result.source.name,
      `${result.seconds.toFixed(1)} s, ${result.sourceMbps.toFixed(0)} Mb/s`,
      index + 1,
      timing.wall.toFixed(1),
      timing.cpu.toFixed(1),
      (timing.wall / result.seconds).toFixed(2),
      (timing.cpu / result.seconds).toFixed(2),
      timing.stream,
      ((timing.bytes / 1e6 / result.seconds) * 60).toFixed(0),
    ]),
  );
  const lambdaRows = results.flatMap((result) =>
    result.lambda.map((row) => [
      result.source.name,
      `${row.mb.toLocaleString('en')} MB (${vcpus(row.mb).toFixed(0)} vCPU)`,
      row.perSecond.toFixed(2),
      money(row.dollarsPerMinute),
      row.minutesPerInvocation.toFixed(1),
    ]),
  );
  return [
    `Machine: ${cpu}, shared with other work (load average ${load.map((value) => value.toFixed(1)).join(' / ')} at the end). ffmpeg ${ffmpegVersion()} (@ffmpeg-installer/linux-x64). Each encode is pinned to as many cores as threads (\`taskset\`); CPU is user + system time, which other work on the machine does not inflate as it does the wall clock.`,
    '',
    table(
      ['source', 'length', 'threads', 'wall s', 'CPU s', 'wall s per s of video', 'CPU s per s of video', 'output', 'output MB per min'],
      measuredRows,
    ),
    '',
    `Lambda (arm64), modelled: CPU-seconds per second of video at one thread × ${gravitonFactor} (assumed: a Graviton core with the 2019 arm64 build against this machine's core; not measured on Lambda), divided by the vCPUs' speed-up (one vCPU per 1,769 MB, six at 10,240 MB), each doubling of threads at the efficiency of the 1- and 2-thread runs' CPU time (their threading overhead; the wall clock's speed-up is shown but not used, the machine being shared: ${results.map((result) => `${result.source.name} ${result.efficiency.toFixed(2)}`).join(', ')}; at most 0.9, an assumption: x264 and the HEVC decoder scale sub-linearly). $${lambdaPerGbSecond} per GB-second. Minutes of video one invocation finishes in ${budgetSeconds / 60} of its 15 minutes (the rest for the download, the upload and a margin).`,
    '',
    table(['source', 'memory', 'Lambda s per s of video', '$ per min of video', 'min of video per invocation'], lambdaRows),
    '',
    `MediaConvert, per minute of 720p output (≤30 fps, us-east-1; the classic published rates, **not verified** against AWS's live price page, whose tables did not come through): Basic tier AVC ${money(mediaConvert.basicHd)}, Professional tier ${money(mediaConvert.proHd)} (which tier HDR→SDR tone mapping needs is not verified either). The price depends on the output (720p), not on the source's 4K; 10 s minimum per output.`,
    '',
    `**Crossover**: at 10,240 MB the heaviest source takes ${Math.max(...results.map((result) => result.lambda.at(-1)?.perSecond ?? 0)).toFixed(2)} s per second of video, so videos longer than **${maxSeconds} s** (${(maxSeconds / 60).toFixed(1)} min) go to MediaConvert: \`TRANSCODE_LAMBDA_MAX_SECONDS=${maxSeconds}\`. A 1080p video could stay on Lambda longer (the table), but the limit is one duration, set by the heaviest source measured; a 4K video at 60 fps (an iPhone's option) is about twice the work per second, so one between ${Math.floor(maxSeconds / 2)} and ${maxSeconds} s would need the function's whole 15 minutes or more.`,
  ].join('\n');
};

const ffmpegVersion = (): string => {
  const text = execFileSync(ffmpeg.path, ['-hide_banner', '-version']).toString();
  return /ffmpeg version (\S+)/.exec(text)?.[1] ?? 'unknown';
};

/** A family shooting 60 phone videos a month, 30 s each on average, 4K HEVC HDR. */
const family = { videos: 60, seconds: 30 };
/** S3 Standard per GB-month, us-east-1 (first 50 TB); the encoded versions are read as often as the originals. */
const s3PerGbMonth = 0.023;

const renderCost = ({ results, maxSeconds }: Measurement): string => {
  const fourK = results.find((result) => result.source.width === 3840);
  if (!fourK) return '';
  const minutes = (family.videos * family.seconds) / 60;
  const lambda = fourK.lambda.find((row) => row.mb === 10240);
  const small = fourK.lambda.find((row) => row.mb === 1769);
  const encodedGb = (minutes * fourK.encodedMbPerMinute) / 1000;
  const rows = [
    ['Lambda, 10,240 MB (the transcode function)', money((lambda?.dollarsPerMinute ?? 0) * minutes)],
    ['Lambda, if it were 1,769 MB', money((small?.dollarsPerMinute ?? 0) * minutes)],
    ['MediaConvert Basic tier, 720p (for comparison, unverified price)', money(mediaConvert.basicHd * minutes)],
    ['MediaConvert Professional tier, 720p (unverified price)', money(mediaConvert.proHd * minutes)],
    [`S3: the month's encoded versions (${encodedGb.toFixed(2)} GB), each following month`, money(encodedGb * s3PerGbMonth)],
  ];
  return [
    `A family shooting ${family.videos} phone videos a month of ${family.seconds} s on average, 4K HEVC HDR (${minutes} minutes of video), each converted once to Immich's default 720p H.264 (the 4K row of docs/benchmarks.md, "Video transcoding", modelled for Lambda arm64):`,
    '',
    table(['what', 'a month'], rows),
    '',
    `${family.seconds <= maxSeconds ? 'Every such video is under the crossover and is encoded on Lambda' : 'Such videos are over the crossover and go to MediaConvert'}; per minute of video Lambda at 10,240 MB costs ${money(lambda?.dollarsPerMinute ?? 0)} against MediaConvert's ${money(mediaConvert.basicHd)} (Basic) to ${money(mediaConvert.proHd)} (Professional). The encoded versions (about ${fourK.encodedMbPerMinute.toFixed(0)} MB per minute of video against ${((fourK.sourceMbps / 8) * 60).toFixed(0)} MB for the originals) add their storage month after month, as the originals do; they are not counted in the user's quota, as Immich does not count them.`,
  ].join('\n');
};

export const transcodeSection = { name: 'transcode', run: async () => render(await measureTranscode()) };
export const transcodeCostSection = { name: 'transcode-cost', doc: 'cost.md', run: async () => renderCost(await measureTranscode()) };
