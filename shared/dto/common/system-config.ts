import * as v from 'valibot';
import { isCron } from '../../core/cron.ts';
import { fillKeys, rules } from '../common.ts';
import {
  boolean,
  eachOneOf,
  ffmpegEntries,
  int,
  job,
  jobEntries,
  library,
  machineLearningEntries,
  machineLearningUrl,
  machineLearningUrlCheck,
  machineLearningUrlsCheck,
  number,
  oauthChecks,
  oauthEntries,
  oneOf,
  section,
  sharedSectionEntries,
  string,
  thumbnailEntries,
} from './system-config-rules.ts';

/**
 * The one PUT /system-config body, both generations' (docs/immich-compatibility.md, "System
 * configuration"): v1.100's sections and rules (shared/dto/common/system-config-rules.ts) with Immich v3.2's
 * settings (`AdminConfigDto`) added. A setting both generations have is required, as both require
 * it, and checked by v1.100's rule; a setting only one generation has may be left out, and then
 * keeps its value (each generation's clients send back what GET answered, which has both).
 * Messages are class-validator's wording, as on every path both generations share.
 */

// A setting only one generation has: left out, it keeps its value.
const kept = v.optional;

/**
 * The body's rules: about 300 settings, built on the first update rather than at import (they
 * cost about 1.5 ms to build; docs/benchmarks.md), then kept.
 */
const build = () => {
  const cron = v.pipe(
    v.unknown(),
    rules.isString,
    v.check((x) => isCron(x), '$property must be a valid cron expression'),
    v.transform(String),
  );
  const emptyOrUrl = v.pipe(
    string(),
    v.check((x) => x === '' || URL.canParse(x), '$property must be an empty string or a valid URL'),
  );
  const videoCodecsV3 = ['h264', 'hevc', 'vp9', 'av1'] as const;
  const imageFormats = ['jpeg', 'webp'] as const;
  const hlsResolutions = [480, 720, 1080, 1440, 2160] as const;
  const eachResolution = v.pipe(
    v.unknown(),
    v.check(
      (x) => Array.isArray(x) && x.every((item) => hlsResolutions.includes(item)),
      `each value in $property must be one of the following values: ${hlsResolutions.join(', ')}`,
    ),
    v.transform((x) => x as number[]),
  );
  const urls = v.pipe(
    v.unknown(),
    v.check((x) => Array.isArray(x) && x.length > 0, '$property must contain at least 1 elements'),
    v.check((x) => Array.isArray(x) && x.every((item) => typeof item === 'string'), 'each value in $property must be a string'),
    v.transform((x) => x as string[]),
  );
  const timeOfDay = v.pipe(
    v.unknown(),
    v.check((x) => typeof x === 'string' && /^([01]\d|2[0-3]):[0-5]\d$/.test(x), '$property must be a time in HH:MM format'),
    v.transform(String),
  );
  const score = number({ min: 0.1, max: 1 });
  const generatedImage = section({
    format: oneOf(imageFormats),
    quality: int({ min: 1, max: 100 }),
    size: int({ min: 1 }),
    progressive: kept(boolean()),
  });
  const integrityJob = section({ enabled: boolean(), cronExpression: cron });

  const ffmpeg = section({
    ...ffmpegEntries(),
    npl: kept(ffmpegEntries().npl),
    accelDecode: kept(boolean()),
    acceptedContainers: kept(eachOneOf(['mov', 'mp4', 'ogg', 'webm'])),
    realtime: kept(section({ enabled: boolean(), videoCodecs: eachOneOf(videoCodecsV3), resolutions: eachResolution })),
  });

  const machineLearning = v.pipe(
    section({
      ...machineLearningEntries(),
      url: kept(machineLearningUrl()),
      urls: kept(urls),
      availabilityChecks: kept(section({ enabled: boolean(), timeout: int(), interval: int() })),
      duplicateDetection: kept(section({ enabled: boolean(), maxDistance: number({ min: 0.001, max: 0.1 }) })),
      ocr: kept(
        section({
          enabled: boolean(),
          modelName: string(),
          minDetectionScore: score,
          minRecognitionScore: score,
          maxResolution: int({ min: 1 }),
        }),
      ),
    }),
    machineLearningUrlCheck(),
    machineLearningUrlsCheck(),
  );

  const oauth = v.pipe(
    section({
      ...oauthEntries(),
      tokenEndpointAuthMethod: kept(oneOf(['client_secret_post', 'client_secret_basic'])),
      timeout: kept(int({ min: 1 })),
      allowInsecureRequests: kept(boolean()),
      prompt: kept(string()),
      endSessionEndpoint: kept(emptyOrUrl),
      profileSigningAlgorithm: kept(string()),
      roleClaim: kept(string()),
      accountManagementUrl: kept(emptyOrUrl),
    }),
    ...oauthChecks(),
  );

  const { logging, map, newVersionCheck, passwordLogin, reverseGeocoding, storageTemplate, trash, theme, server, user } =
    sharedSectionEntries();

  const entries = {
    // Both generations'
    ffmpeg,
    job: section({
      ...jobEntries(),
      notifications: kept(job()),
      ocr: kept(job()),
      workflow: kept(job()),
      integrityCheck: kept(job()),
      editor: kept(job()),
    }),
    logging: section(logging),
    machineLearning,
    map: section(map),
    newVersionCheck: section({ ...newVersionCheck, channel: kept(oneOf(['stable', 'releaseCandidate'])) }),
    oauth,
    passwordLogin: section(passwordLogin),
    reverseGeocoding: section(reverseGeocoding),
    storageTemplate: section(storageTemplate),
    trash: section(trash),
    theme: section(theme),
    library: library(),
    server: section({ ...server, publicUsers: kept(boolean()) }),
    user: section(user),
    // v1.100's alone: a view of `image`
    thumbnail: kept(section(thumbnailEntries())),
    // v3's alone
    backup: kept(section({ database: section({ enabled: boolean(), cronExpression: cron, keepLastAmount: int({ min: 1 }) }) })),
    image: kept(
      section({
        thumbnail: generatedImage,
        preview: generatedImage,
        fullsize: section({
          enabled: boolean(),
          format: oneOf(imageFormats),
          quality: int({ min: 1, max: 100 }),
          progressive: kept(boolean()),
        }),
        colorspace: oneOf(['srgb', 'p3']),
        extractEmbedded: boolean(),
      }),
    ),
    integrityChecks: kept(
      section({
        missingFiles: integrityJob,
        untrackedFiles: integrityJob,
        checksumFiles: section({
          enabled: boolean(),
          cronExpression: cron,
          timeLimit: int({ min: 0 }),
          percentageLimit: number({ min: 0, max: 1 }),
        }),
      }),
    ),
    metadata: kept(section({ faces: section({ import: boolean() }) })),
    nightlyTasks: kept(
      section({
        startTime: timeOfDay,
        databaseCleanup: boolean(),
        missingThumbnails: boolean(),
        clusterNewFaces: boolean(),
        generateMemories: boolean(),
        syncQuotaUsage: boolean(),
      }),
    ),
    notifications: kept(
      section({
        smtp: section({
          enabled: boolean(),
          from: string(),
          replyTo: string(),
          transport: section({
            ignoreCert: boolean(),
            host: string(),
            port: int({ min: 0, max: 65_535 }),
            secure: boolean(),
            username: string(),
            password: string(),
          }),
        }),
      }),
    ),
    templates: kept(
      section({ email: section({ welcomeTemplate: string(), albumInviteTemplate: string(), albumUpdateTemplate: string() }) }),
    ),
  };

  return v.pipe(v.unknown(), fillKeys(entries), v.object(entries));
};

let built: ReturnType<typeof build> | undefined;

/** The whole body is itself required to be an object; its sections are checked as above. */
export const SystemConfigBody = v.lazy(() => (built ??= build()));

// A checked body is the model's `SystemConfigUpdate` (shared/model/config.ts).
