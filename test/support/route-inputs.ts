/**
 * What a route takes, read from the valibot schemas its handler carries (`schemas`,
 * shared/http/pipeline.ts): each body and query field's name, kind and whether it may be left out,
 * and a request at its widest. The fuzz (test/functions/fuzz.test.ts) and the stall soak
 * (test/bench/stall.ts) generate their requests from it, so a new route is in both.
 */
export type Kind = 'uuid' | 'uuids' | 'list' | 'objects' | 'object' | 'bool' | 'number' | 'date' | 'enum' | 'string';
export interface Field {
  name: string;
  kind: Kind;
  /** The schema lets it out (class-validator's `@Optional()`, zod's `.optional()`). */
  optional: boolean;
  /** A date that must be a day alone (`YYYY-MM-DD`), not an instant. */
  day?: boolean;
  /** The most items a list takes, as its schema states it (docs/api.md, "Limits"). */
  maxItems?: number;
  options?: string[];
  fields?: Field[];
}
export type Schema = {
  type?: string;
  message?: unknown;
  pipe?: Schema[];
  wrapped?: Schema;
  item?: Schema;
  options?: unknown[];
  entries?: Record<string, Schema>;
};

/** The object entries a schema checks (through pipes, optional wrappers and unions), if any. */
export const entriesOf = (schema: Schema | undefined, depth = 0): Record<string, Schema> | undefined => {
  if (!schema || depth > 8) return undefined;
  if (schema.entries) return schema.entries;
  for (const part of [...(schema.pipe ?? []), schema.wrapped, schema.item, ...((schema.options ?? []) as Schema[])]) {
    const found = entriesOf(part as Schema | undefined, depth + 1);
    if (found) return found;
  }
  return undefined;
};

/** The types and messages of a field's own checks (not of its nested objects'), and its picklist. */
export const describeField = (schema: Schema, out: { text: string[]; options: string[] } = { text: [], options: [] }, depth = 0) => {
  if (depth > 8) return out;
  if (schema.type) out.text.push(schema.type);
  if (typeof schema.message === 'string') {
    out.text.push(schema.message);
    const listed = /one of(?: the following values)?: (.*)$/.exec(schema.message)?.[1];
    if (listed) out.options.push(...listed.split(', '));
  }
  if (schema.type === 'picklist' || schema.type === 'enum') out.options.push(...((schema.options ?? []) as unknown[]).map(String));
  for (const part of [...(schema.pipe ?? []), schema.wrapped, schema.item]) if (part && !part.entries) describeField(part, out, depth + 1);
  return out;
};

export const fieldsOf = (schema: Schema | undefined, depth = 0): Field[] =>
  Object.entries(entriesOf(schema) ?? {}).map(([name, entry]) => {
    const { text, options } = describeField(entry);
    const all = text.join(' ');
    const nested = depth < 3 ? entriesOf(entry) : undefined;
    const isList = /\barray\b|each value/.test(all);
    const kind: Kind = nested
      ? isList
        ? 'objects'
        : 'object'
      : /each value in \$property must be a UUID/.test(all) || (isList && /UUID/.test(all))
        ? 'uuids'
        : isList
          ? 'list'
          : /UUID|uuid/.test(all)
            ? 'uuid'
            : options.length > 0
              ? 'enum'
              : /boolean/.test(all)
                ? 'bool'
                : /number|integer/.test(all)
                  ? 'number'
                  : /[Dd]ate|ISO/.test(all)
                    ? 'date'
                    : 'string';
    const optional = ['nullish', 'optional', 'exact_optional', 'undefinedable'].includes(entry.type ?? '');
    // v1.100's `no more than N elements` (class-validator's ArrayMaxSize), v3's `at most N items`.
    const limit = /(?:no more than|at most) (\d+) (?:elements|items)/.exec(all)?.[1];
    return {
      name,
      kind,
      optional,
      day: /YYYY-MM-DD/.test(all),
      ...(limit ? { maxItems: Number(limit) } : {}),
      options,
      fields: nested ? fieldsOf(entry, depth + 1) : undefined,
    };
  });

export const isListKind = (kind: Kind) => kind === 'uuids' || kind === 'list' || kind === 'objects';

/** The widest valid value of a field that is not a list: dates from the first day to the last, sizes at their largest. */
export const widestValue = (field: Field, ids: readonly string[]): unknown => {
  switch (field.kind) {
    case 'uuid':
      return ids[0];
    case 'uuids':
      return ids.slice(0, 3);
    case 'list':
      return ['a', 'b'];
    case 'objects':
      return [widest(field.fields ?? [], ids)];
    case 'object':
      return widest(field.fields ?? [], ids);
    case 'bool':
      return true;
    case 'number':
      return /size|take|limit|count|page/i.test(field.name) ? 1000 : 1;
    case 'date':
      if (/after|from|start|min|since/i.test(field.name)) return field.day ? '0001-01-01' : '0001-01-01T00:00:00.000Z';
      return field.day ? '9999-12-31' : '9999-12-31T23:59:59.999Z';
    case 'enum':
      return field.options?.[0];
    default:
      return 'a';
  }
};

/** What makes a request cost more: a wider range of dates, a larger page. */
export const widens = (field: Field) =>
  field.kind === 'date' || (field.kind === 'number' && /size|take|limit|count|page/i.test(field.name));

/** A valid request at its widest: the fields it needs, and every date and size at its widest (other optional fields left out, as they narrow). */
export const widest = (fields: readonly Field[], ids: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(fields.filter((field) => !field.optional || widens(field)).map((field) => [field.name, widestValue(field, ids)]));

/** A valid request at its narrowest: only the fields it cannot do without (beside a long list, nothing else refuses it). */
export const required = (fields: readonly Field[], ids: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(fields.filter((field) => !field.optional).map((field) => [field.name, widestValue(field, ids)]));
