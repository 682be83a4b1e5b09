import * as v from 'valibot';

/**
 * Building blocks for request DTOs with class-validator's behaviour and wording, so that errors
 * read exactly as Immich's. Messages use `$property`; shared/dto/validate.ts fills in the name
 * and the parent path. A field is a pipe of `v.check` rules on `unknown`, which (unlike a typed
 * schema) all run, so a missing value gets every message class-validator would give, listed in
 * Immich's order (the reverse of the DTO's decorators).
 */

export const isPlainObject = (input: unknown): input is Record<string, unknown> =>
  typeof input === 'object' && input !== null && !Array.isArray(input);

/**
 * Gives every key of `entries` absent from the input an explicit `undefined`, so that the
 * following `v.object` runs that field's own rules (class-validator's behaviour) instead of
 * reporting an "invalid key". Anything but an object becomes `{}`.
 */
export const fillKeys = (entries: v.ObjectEntries) =>
  v.transform((input: unknown) => {
    const filled: Record<string, unknown> = isPlainObject(input) ? { ...input } : {};
    for (const key of Object.keys(entries)) if (!(key in filled)) filled[key] = undefined;
    return filled;
  });

/**
 * An object DTO. Unlike `v.object`, a missing key runs that field's own rules on `undefined`
 * (class-validator reports `email must be an email`, not "invalid key"); unknown keys are
 * stripped, as Immich's whitelisting ValidationPipe does.
 */
export const dto = <const TEntries extends v.ObjectEntries>(entries: TEntries, message = '$property must be an object') =>
  v.pipe(v.unknown(), v.check(isPlainObject, message), fillKeys(entries), v.object(entries));

/** Ends a pipe of checks on `unknown` with the type they established. */
export const as = <T>() => v.transform((input: unknown) => input as T);

export const rules = {
  isString: v.check((x: unknown) => typeof x === 'string', '$property must be a string'),
  // class-validator's isNotEmpty: anything but '', null and undefined.
  isNotEmpty: v.check((x: unknown) => x !== '' && x !== null && x !== undefined, '$property should not be empty'),
  maxLength: (n: number) =>
    v.check((x: unknown) => typeof x !== 'string' || x.length <= n, `$property must be shorter than or equal to ${n} characters`),
  minLength: (n: number) =>
    v.check((x: unknown) => typeof x === 'string' && x.length >= n, `$property must be longer than or equal to ${n} characters`),
  isNumber: v.check(
    (x: unknown) => typeof x === 'number' && Number.isFinite(x),
    '$property must be a number conforming to the specified constraints',
  ),
  isPositive: v.check((x: unknown) => typeof x === 'number' && x > 0, '$property must be a positive number'),
  /**
   * Not in Immich: DynamoDB numbers are read back into JavaScript numbers, which hold integers
   * exactly only up to 2^53 - 1, and the SDK refuses to write larger ones. Immich (PostgreSQL)
   * took `quotaSizeInBytes: 1e20`; here it is a clear 400 instead of a 500.
   */
  isSafe: v.check(
    (x: unknown) => typeof x !== 'number' || Math.abs(x) <= Number.MAX_SAFE_INTEGER,
    `$property must not be greater than ${Number.MAX_SAFE_INTEGER}`,
  ),
};

/** `@IsString() @IsNotEmpty()`: a required, non-empty string (at most `max` characters). */
export const nonEmptyString = (max: number) => v.pipe(v.unknown(), rules.maxLength(max), rules.isNotEmpty, rules.isString, as<string>());

/** `@Optional()`: null and undefined skip every rule (and come out as they went in), as IsOptional does. */
export const optional = <S extends v.GenericSchema>(schema: S) => v.nullish(schema);

/** `@Optional()` on a query parameter: absent stays undefined (a query string has no null). */
export const absentOr = <S extends v.GenericSchema>(schema: S) =>
  v.pipe(
    v.nullish(schema),
    v.transform((x) => x ?? undefined),
  );

/** Immich's UUID params and ids are UUID v4 (`ValidateUUID`). */
export const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export const uuid = (message = '$property must be a UUID') =>
  v.pipe(
    v.unknown(),
    v.check((x) => typeof x === 'string' && uuidV4.test(x), message),
    as<string>(),
  );

/** `{ id }` path parameters, as Immich's `UUIDParamDto`. */
export const IdParams = dto({ id: uuid() });

/** `@ValidateBoolean()`: true/false, or the strings "true"/"false" (query strings, form fields). */
export const booleanish = (message = '$property must be a boolean value') =>
  v.pipe(
    v.unknown(),
    v.check((x) => x === true || x === false || x === 'true' || x === 'false', message),
    v.transform((x) => x === true || x === 'true'),
  );

/** `@IsEnum()`: one of `values` (class-validator's message lists them). */
export const isOneOf = <const T extends readonly string[]>(values: T) =>
  v.check((x: unknown) => values.includes(x as T[number]), `$property must be one of the following values: ${values.join(', ')}`);

/** `@IsArray() @ValidateNested({ each: true }) @Type(() => Item)`: a list of objects, each checked by `item`. */
export const objectList = <S extends v.GenericSchema>(item: S) =>
  v.pipe(
    v.unknown(),
    v.check((x: unknown) => Array.isArray(x), '$property must be an array'),
    as<unknown[]>(),
    v.array(v.pipe(v.unknown(), v.check(isPlainObject, 'nested property $property must be either object or array'), item)),
  );

/**
 * validator.js `isISO8601` (class-validator's `isDateString`): calendar, week and ordinal dates,
 * optional time with fractions and an offset.
 */
const iso8601 =
  /^([+-]?\d{4}(?!\d{2}\b))((-?)((0[1-9]|1[0-2])(\3([12]\d|0[1-9]|3[01]))?|W([0-4]\d|5[0-3])(-?[1-7])?|(00[1-9]|0[1-9]\d|[12]\d{2}|3([0-5]\d|6[1-6])))([T\s]((([01]\d|2[0-3])((:?)[0-5]\d)?|24:?00)([.,]\d+(?!:))?)?(\17[0-5]\d([.,]\d+)?)?([zZ]|([+-])([01]\d|2[0-3]):?([0-5]\d)?)?)?)?$/;

export const isDateString = (value: unknown): value is string => typeof value === 'string' && iso8601.test(value);

// class-validator's `each`: a non-array value is checked as if it were the one element.
const eachUuid = v.check(
  (x: unknown) => (Array.isArray(x) ? x : [x]).every((id) => typeof id === 'string' && uuidV4.test(id)),
  'each value in $property must be a UUID',
);
const isArray = v.check((x: unknown) => Array.isArray(x), '$property must be an array');

/** `@ValidateUUID({ each: true })`: a required list of UUIDs (`BulkIdsDto`). */
export const uuidList = () => v.pipe(v.unknown(), eachUuid, rules.isNotEmpty, isArray, as<string[]>());

/** `@ArrayMaxSize(max)` (not in Immich's DTOs that use it here: docs/api.md, "Limits"). */
export const maxItems = <T extends readonly unknown[]>(max: number) =>
  // Checked also after an earlier rule failed (valibot runs a pipe's checks on), so not always an array.
  v.check<T, string>((items) => !Array.isArray(items) || items.length <= max, `$property must contain no more than ${max} elements`);

/** `uuidList()` of at most `max` ids (docs/api.md, "Limits"). */
export const uuidListUpTo = (max: number) => v.pipe(uuidList(), maxItems(max));

/** `@ValidateUUID({ each: true, optional: true })` of at most `max` ids. */
export const optionalUuidListUpTo = (max: number) => optional(v.pipe(v.unknown(), eachUuid, isArray, as<string[]>(), maxItems(max)));
