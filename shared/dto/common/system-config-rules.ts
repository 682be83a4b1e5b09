import * as v from 'valibot';
import { isCron } from '../../core/cron.ts';
import { limits } from '../../model/limits.ts';
import { as, booleanish, fillKeys, isOneOf, isPlainObject, rules } from '../common.ts';

/**
 * Immich v1.100's SystemConfigDto rules (`server/src/dtos/system-config.dto.ts`): Immich's enums,
 * ranges and conditional rules, numeric strings accepted where Immich converts them, unknown keys
 * stripped. Each field lists its rules in Immich's message order (the reverse of its decorators).
 * The one PUT /system-config body (shared/dto/common/system-config.ts) is these sections with v3's
 * settings added; the building blocks are exported for it.
 */

// class-transformer's @Type(() => Number): strings go through Number(), other values stay.
const toNumber = v.transform((x: unknown) => (typeof x === 'string' ? Number(x) : x));
const isInt = v.check((x: unknown) => Number.isInteger(x), '$property must be an integer number');
const isNumber = v.check(
  (x: unknown) => typeof x === 'number' && Number.isFinite(x),
  '$property must be a number conforming to the specified constraints',
);
const min = (n: number) => v.check((x: unknown) => typeof x === 'number' && x >= n, `$property must not be less than ${n}`);
const max = (n: number) => v.check((x: unknown) => typeof x === 'number' && x <= n, `$property must not be greater than ${n}`);

/**
 * Schemas are immutable, so a field's rules built once serve every field with the same ones
 * (about 300 fields here, most of a few kinds): building them once per kind keeps the import of
 * the configuration's update function short (docs/benchmarks.md).
 */
const once = <A extends unknown[], R>(build: (...args: A) => R): ((...args: A) => R) => {
  const built = new Map<string, R>();
  return (...args: A) => {
    const key = JSON.stringify(args);
    const found = built.get(key);
    if (found !== undefined) return found;
    const made = build(...args);
    built.set(key, made);
    return made;
  };
};

type Range = { min?: number; max?: number; convert?: boolean };
const numberRules = ({ min: lo, max: hi }: Range) => [...(hi === undefined ? [] : [max(hi)]), ...(lo === undefined ? [] : [min(lo)])];

/** `@IsInt() [@Min] [@Max] [@Type(Number)]` */
export const int = once(
  (range: Range = {}): v.GenericSchema<unknown, number> =>
    v.pipe(v.unknown(), ...(range.convert ? [toNumber] : []), rules.isSafe, ...numberRules(range), isInt, as<number>()) as v.GenericSchema<
      unknown,
      number
    >,
);
/** `@IsNumber() [@Min] [@Max] [@Type(Number)]` */
export const number = once(
  (range: Range = {}): v.GenericSchema<unknown, number> =>
    v.pipe(
      v.unknown(),
      ...(range.convert ? [toNumber] : []),
      rules.isSafe,
      ...numberRules(range),
      isNumber,
      as<number>(),
    ) as v.GenericSchema<unknown, number>,
);
/** `@IsInt() @IsPositive()` */
const positiveInt = once(() => v.pipe(v.unknown(), rules.isSafe, rules.isPositive, isInt, as<number>()));
export const string = once(() => v.pipe(v.unknown(), rules.maxLength(limits.configText), rules.isString, as<string>()));
export const nonEmptyString = once(() =>
  v.pipe(v.unknown(), rules.maxLength(limits.configText), rules.isNotEmpty, rules.isString, as<string>()),
);
export const boolean = once(() => booleanish());
export const oneOf = once(<const T extends readonly string[]>(values: T) => v.pipe(v.unknown(), isOneOf(values), as<T[number]>()));
export const eachOneOf = once(<const T extends readonly string[]>(values: T) =>
  v.pipe(
    v.unknown(),
    v.check(
      (x) => (Array.isArray(x) ? x : [x]).every((item) => values.includes(item as string)),
      `each value in $property must be one of the following values: ${values.join(', ')}`,
    ),
    v.transform((x) => (Array.isArray(x) ? x : [x]) as T[number][]),
  ),
);

/** A nested section: `@Type() @ValidateNested() @IsObject()`, with class-validator's two messages. */
export const section = <const TEntries extends v.ObjectEntries>(entries: TEntries) =>
  v.pipe(
    v.unknown(),
    v.check(isPlainObject, '$property must be an object'),
    v.check((x) => x === undefined || isPlainObject(x), 'nested property $property must be either object or array'),
    fillKeys(entries),
    v.object(entries),
  );

/** `@ValidateIf(condition)` on a field: the rule applies only when the section says so. */
// The forwarded check must fit whichever section's pipe it is placed in.
// biome-ignore lint/suspicious/noExplicitAny: valibot types a forwarded check by its section; one helper serves every section.
type AnySection = any;
export const when = <T extends Record<string, unknown>>(
  condition: (section: T) => boolean,
  field: keyof T & string,
  check: (value: unknown) => boolean,
  message: string,
) =>
  v.forward(
    v.check((s: T) => !condition(s) || check(s[field]), message),
    [field] as never,
  ) as v.BaseValidation<AnySection, AnySection, v.BaseIssue<unknown>>;

// validator.js isURL, as Immich calls it for the ML url (require_tld false, underscores allowed)
// and with defaults (a top-level domain required) for the mobile redirect URI.
const urlPattern = (tld: boolean, underscores: boolean) => {
  const label = underscores ? '[a-z\\d_](?:[a-z\\d_-]*[a-z\\d_])?' : '[a-z\\d](?:[a-z\\d-]*[a-z\\d])?';
  const host = tld ? `(?:${label}\\.)+[a-z\\u00a1-\\uffff]{2,}` : `${label}(?:\\.${label})*`;
  return new RegExp(
    `^(?:[a-z][a-z\\d+.-]*://)?(?:[^\\s:@/]+(?::[^\\s@/]*)?@)?(?:${host}|\\d{1,3}(?:\\.\\d{1,3}){3}|\\[[\\da-f:]+\\])(?::\\d{1,5})?(?:[/?#][^\\s]*)?$`,
    'i',
  );
};
const isUrl = (pattern: RegExp) => (x: unknown) => typeof x === 'string' && x.length <= 2083 && pattern.test(x);
const mlUrl = isUrl(urlPattern(false, true));
const strictUrl = isUrl(urlPattern(true, false));
const isNonEmptyString = (x: unknown) => typeof x === 'string' && x !== '';

export const videoCodecs = ['h264', 'hevc', 'vp9'] as const;
const audioCodecs = ['mp3', 'aac', 'libopus'] as const;
const modelTypes = ['facial-recognition', 'clip'] as const;

export const job = once(() => section({ concurrency: positiveInt() }));

/** `npl` is v1.100's alone (v3 dropped it). */
export const ffmpegEntries = once(() => ({
  crf: int({ min: 0, max: 51, convert: true }),
  threads: int({ min: 0, convert: true }),
  preset: string(),
  targetVideoCodec: oneOf(videoCodecs),
  acceptedVideoCodecs: eachOneOf(videoCodecs),
  targetAudioCodec: oneOf(audioCodecs),
  acceptedAudioCodecs: eachOneOf(audioCodecs),
  targetResolution: string(),
  maxBitrate: string(),
  bframes: int({ min: -1, max: 16, convert: true }),
  refs: int({ min: 0, max: 6, convert: true }),
  gopSize: int({ min: 0, convert: true }),
  npl: int({ min: 0, convert: true }),
  temporalAQ: boolean(),
  cqMode: oneOf(['auto', 'cqp', 'icq']),
  twoPass: boolean(),
  preferredHwDevice: string(),
  transcode: oneOf(['all', 'optimal', 'bitrate', 'required', 'disabled']),
  accel: oneOf(['nvenc', 'qsv', 'vaapi', 'rkmpp', 'disabled']),
  tonemap: oneOf(['hable', 'mobius', 'reinhard', 'disabled']),
}));

export const machineLearningEntries = once(() => ({
  enabled: boolean(),
  clip: section({
    enabled: boolean(),
    modelName: nonEmptyString(),
    modelType: v.optional(oneOf(modelTypes)),
    mode: v.optional(oneOf(['vision', 'text'])),
  }),
  facialRecognition: section({
    enabled: boolean(),
    modelName: nonEmptyString(),
    modelType: v.optional(oneOf(modelTypes)),
    minScore: number({ min: 0, max: 1, convert: true }),
    maxDistance: number({ min: 0, max: 2, convert: true }),
    minFaces: number({ min: 1, convert: true }),
  }),
}));
/** v1.100's one URL (v3's first of `urls`): a URL when machine learning is on. */
export const machineLearningUrl = once(() => v.pipe(v.unknown(), rules.isString, as<string>()));
export const machineLearningUrlCheck = once(() =>
  when((s: { enabled: boolean; url?: string }) => s.enabled && s.url !== undefined, 'url', mlUrl, '$property must be a URL address'),
);
/**
 * v3's `urls`, each a URL by v1.100's rule when machine learning is on (Immich 3.1 takes any
 * string; v1.100's `url` is the first of them, so one rule keeps a v1.100 client able to send back
 * what it was shown; docs/machine-learning.md, "Settings").
 */
export const machineLearningUrlsCheck = once(() =>
  when(
    (s: { enabled: boolean; urls?: unknown }) => s.enabled && Array.isArray(s.urls),
    'urls',
    (x) => Array.isArray(x) && x.every(mlUrl),
    'each value in $property must be a URL address',
  ),
);

type OAuth = {
  enabled: boolean;
  mobileOverrideEnabled: boolean;
  clientId: string;
  clientSecret: string;
  issuerUrl: string;
  mobileRedirectUri: string;
};
const oauthRequired = (field: 'clientId' | 'clientSecret' | 'issuerUrl') => [
  when((s: OAuth) => s.enabled, field, isNonEmptyString, '$property should not be empty'),
  when(
    (s: OAuth) => s.enabled,
    field,
    (x) => typeof x === 'string',
    '$property must be a string',
  ),
];

export const oauthEntries = once(() => ({
  autoLaunch: boolean(),
  autoRegister: boolean(),
  buttonText: string(),
  clientId: v.pipe(v.unknown(), as<string>()),
  clientSecret: v.pipe(v.unknown(), as<string>()),
  // v3's default is null (no quota), which both generations accept; otherwise v1.100's rule.
  defaultStorageQuota: v.nullable(number({ min: 0 })),
  enabled: boolean(),
  issuerUrl: v.pipe(v.unknown(), as<string>()),
  mobileOverrideEnabled: boolean(),
  mobileRedirectUri: v.pipe(v.unknown(), as<string>()),
  scope: string(),
  signingAlgorithm: nonEmptyString(),
  storageLabelClaim: string(),
  storageQuotaClaim: string(),
}));
export const oauthChecks = once(
  () =>
    [
      ...oauthRequired('clientId'),
      ...oauthRequired('clientSecret'),
      ...oauthRequired('issuerUrl'),
      when((s: OAuth) => s.mobileOverrideEnabled, 'mobileRedirectUri', strictUrl, '$property must be a URL address'),
    ] as const,
);

type LibraryScan = { enabled: boolean; cronExpression: string };
export const library = once(() =>
  section({
    scan: v.pipe(
      section({ enabled: boolean(), cronExpression: v.pipe(v.unknown(), as<string>()) }),
      when(
        (s: LibraryScan) => s.enabled,
        'cronExpression',
        (x) => typeof x === 'string',
        '$property must be a string',
      ),
      when(
        (s: LibraryScan) => s.enabled,
        'cronExpression',
        (x) => isCron(x),
        'Invalid cron expression',
      ),
      when((s: LibraryScan) => s.enabled, 'cronExpression', isNonEmptyString, '$property should not be empty'),
    ),
    watch: section({ enabled: boolean() }),
  }),
);

/** v1.100's job queues (v3 has five more). */
export const jobEntries = once(() => ({
  backgroundTask: job(),
  smartSearch: job(),
  metadataExtraction: job(),
  faceDetection: job(),
  search: job(),
  sidecar: job(),
  library: job(),
  migration: job(),
  thumbnailGeneration: job(),
  videoConversion: job(),
}));

/** v1.100's sections whose fields v3 has as they are (v3 adds fields to some: shared/dto/common/system-config.ts). */
export const sharedSectionEntries = once(() => ({
  logging: { enabled: boolean(), level: oneOf(['verbose', 'debug', 'log', 'warn', 'error', 'fatal']) },
  map: { enabled: boolean(), lightStyle: string(), darkStyle: string() },
  newVersionCheck: { enabled: boolean() },
  passwordLogin: { enabled: boolean() },
  reverseGeocoding: { enabled: boolean() },
  storageTemplate: { enabled: boolean(), hashVerificationEnabled: boolean(), template: nonEmptyString() },
  trash: { enabled: boolean(), days: int({ min: 0, convert: true }) },
  theme: { customCss: string() },
  server: { externalDomain: string(), loginPageMessage: string() },
  user: { deleteDelay: int({ min: 1, convert: true }) },
}));

/** v1.100's `thumbnail` section: a view of v3's `image` (shared/domain/system-config.ts). */
export const thumbnailEntries = once(() => ({
  webpSize: int({ min: 1, convert: true }),
  jpegSize: int({ min: 1, convert: true }),
  quality: int({ min: 1, max: 100, convert: true }),
  colorspace: oneOf(['srgb', 'p3']),
}));
