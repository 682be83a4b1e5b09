import * as v from 'valibot';

/**
 * Building blocks for request DTOs with class-validator's behaviour and wording (Immich's
 * messages). Messages use `$property`; shared/http/validation.ts fills in the name and path.
 */

const isPlainObject = (input: unknown): input is Record<string, unknown> =>
  typeof input === 'object' && input !== null && !Array.isArray(input);

/**
 * An object DTO. Unlike `v.object`, a missing key runs that field's own rules on `undefined`
 * (class-validator reports `email must be an email`, not "invalid key"); unknown keys are
 * stripped, as Immich's whitelisting ValidationPipe does.
 */
export const dto = <const TEntries extends v.ObjectEntries>(entries: TEntries, message = '$property must be an object') =>
  v.pipe(
    v.custom<Record<string, unknown>>(isPlainObject, message),
    v.transform((input) => {
      const filled: Record<string, unknown> = { ...input };
      for (const key of Object.keys(entries)) if (!(key in filled)) filled[key] = undefined;
      return filled;
    }),
    v.object(entries),
  );

/** Immich's UUID params and ids are UUID v4 (`ValidateUUID`). */
export const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export const uuid = (message = '$property must be a UUID') =>
  v.pipe(v.string(message), v.regex(uuidV4, message));

/** `{ id }` path parameters, as `UUIDParamDto`. */
export const IdParams = dto({ id: uuid() });

/** A required, non-empty string: `IsString() IsNotEmpty()` in class-validator's reverse order. */
export const nonEmptyString = () =>
  v.pipe(v.string('$property must be a string'), v.nonEmpty('$property should not be empty'));

/** A boolean that also accepts the strings "true"/"false" (Immich's `Optional() ValidateBoolean()`). */
export const booleanish = (message = '$property must be a boolean value') =>
  v.pipe(
    v.union([v.boolean(), v.picklist(['true', 'false'])], message),
    v.transform((value) => value === true || value === 'true'),
  );
