import * as v from 'valibot';

/**
 * Field builders for the stored records' schemas (shared/model/*). A record's schema is its type
 * (`v.InferOutput`) and the check every read goes through (shared/db/codec.ts), so an item that
 * does not have the shape the code expects is an error where it is read, not a wrong answer later.
 */

/** A value that may be null; an item written before the field existed reads as null. */
export const nullable = <S extends v.GenericSchema>(schema: S) => v.optional(v.nullable(schema), null);

/** An ISO-8601 instant as the code writes it (`Date#toISOString`). */
export const instant = () => v.string();

export const id = () => v.string();
