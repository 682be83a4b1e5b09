/**
 * Building blocks of Immich v3.2's request schemas. v3 validates with zod: unknown keys are
 * dropped, a failure is `{message: 'Validation failed', errors: [{path, message}]}` (shared/http/errors.ts),
 * the path naming the field; the wording of each message is ours (docs/immich-compatibility.md,
 * "Errors"). `$property` becomes the field's name (shared/dto/validate.ts).
 */
import * as v from 'valibot';
import { uuidV4 } from '../common.ts';

export const text = (max: number) =>
  v.pipe(v.string('$property must be a string'), v.maxLength(max, `$property must be at most ${max} characters`));

export const boolean = v.boolean('$property must be a boolean');

/** A form field or query value: `true` / `false` as text (zod's `stringToBool`), or a JSON boolean. */
export const stringToBool = v.pipe(
  v.union([v.boolean(), v.picklist(['true', 'false'])], '$property must be a boolean'),
  v.transform((x) => x === true || x === 'true'),
);

export const integer = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  v.pipe(
    v.number('$property must be a number'),
    v.integer('$property must be an integer'),
    v.minValue(min, `$property must be at least ${min}`),
    v.maxValue(max, `$property must be at most ${max}`),
  );

/** zod's `z.coerce.number().int()`: a number, or text that is one (form fields, query strings). */
export const coercedInteger = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  v.pipe(
    v.union([v.number(), v.pipe(v.string(), v.regex(/^-?\d+(\.\d+)?$/))], '$property must be a number'),
    v.transform(Number),
    integer(min, max),
  );

export const uuid = v.pipe(v.string('$property must be a UUID'), v.regex(uuidV4, '$property must be a UUID'));

export const uuids = v.array(uuid, '$property must be an array');

/**
 * A list of at most `max` items (docs/api.md, "Limits"), its length checked before its items: a
 * list past the limit is refused at once, with one issue, whatever it holds.
 */
export const upTo = <S extends v.GenericSchema>(max: number, list: S) =>
  v.pipe(
    v.unknown(),
    v.check((x) => !Array.isArray(x) || x.length <= max, `$property must contain at most ${max} items`),
    list,
  );

/** At most `max` UUIDs. */
export const uuidsUpTo = (max: number) => upTo(max, uuids);

/** An ISO-8601 date-time, as the instant it names (`Date#toISOString`). */
export const isoDateTime = v.pipe(
  v.string('$property must be a date-time'),
  v.check((x) => /^\d{4}-\d{2}-\d{2}T/.test(x) && !Number.isNaN(new Date(x).getTime()), '$property must be an ISO date-time'),
  v.transform((x) => new Date(x).toISOString()),
);

/** A day, `YYYY-MM-DD` (zod's `z.iso.date()`), as its first instant in UTC. */
export const isoDate = v.pipe(
  v.string('$property must be a date'),
  v.check(
    (x) => /^\d{4}-\d{2}-\d{2}$/.test(x) && !Number.isNaN(Date.parse(x)) && new Date(x).toISOString().startsWith(x),
    'Invalid input: expected ISO date string (YYYY-MM-DD)',
  ),
  v.transform((x) => new Date(x).toISOString()),
);

export const picklist = <const T extends readonly string[]>(values: T) =>
  v.picklist(values, `$property must be one of: ${values.join(', ')}`);

/** An object of optional fields; unknown keys are dropped (zod's objects strip them). */
export const object = <const E extends v.ObjectEntries>(entries: E) => v.object(entries, '$property must be an object');

/** A color as `#rgb` … `#rrggbbaa` (zod's `hexColor`), or null to clear it. */
export const hexColor = v.optional(
  v.nullable(v.pipe(v.string('$property must be a string'), v.regex(/^#[0-9a-fA-F]{3,8}$/, '$property must be a hex color'))),
);

/** A PIN code of the locked folder: six digits (Immich's `pinCodeRegex`). */
export const pinCode = v.pipe(v.string('$property must be a string'), v.regex(/^\d{6}$/, '$property must be 6 digits'));
