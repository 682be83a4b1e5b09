import * as v from 'valibot';
import { Invalid, type ValidationIssue } from '../core/errors.ts';

/**
 * Turns valibot issues into class-validator's messages, as Immich (NestJS ValidationPipe) sends
 * them. Schemas write messages with a `$property` placeholder (class-validator's own token); here
 * it becomes the property's name and the parent path is prefixed with dots, so a nested
 * `crf` rule reads `ffmpeg.crf must not be greater than 51`, and a custom message without the
 * placeholder still gets its parent path (`library.scan.Invalid cron expression`).
 */
const pathOf = (issue: v.BaseIssue<unknown>): (string | number)[] =>
  (issue.path ?? []).map((item) => item.key).flatMap((key) => (typeof key === 'string' || typeof key === 'number' ? [key] : []));

const formatIssue = (issue: v.BaseIssue<unknown>): string => {
  // Array items are named by their index, as Nest does: `assets.0.checksum should not be empty`.
  const keys = pathOf(issue).map(String);
  const property = keys.at(-1) ?? 'value';
  const parents = keys.slice(0, -1);
  const message = issue.message.replaceAll('$property', property);
  return parents.length > 0 ? `${parents.join('.')}.${message}` : message;
};

export const formatIssues = (issues: readonly v.BaseIssue<unknown>[]): string[] => [...new Set(issues.map(formatIssue))];

/**
 * The issues as Immich v3 lists them (zod's `{path, message}`): the path as keys and indexes, the
 * message about the property itself (`$property` becomes its name, without its parents).
 */
const validationIssues = (issues: readonly v.BaseIssue<unknown>[]): ValidationIssue[] =>
  issues.map((issue) => {
    const path = pathOf(issue);
    return { path, message: issue.message.replaceAll('$property', String(path.at(-1) ?? 'value')) };
  });

/**
 * The most problems a 400 lists. Not in Immich, which lists them all: a list of 20,000 bad items
 * would answer tens of MB, past Lambda's 6 MB answer (a 500 deployed) (docs/immich-compatibility.md).
 */
export const maxListedIssues = 100;

/** Parses `input` with `schema`, or throws `Invalid` with its messages, the first `maxListedIssues` (Immich's 400; v3's `errors`). */
export const parseOrThrow = <S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> => {
  const result = v.safeParse(schema, input);
  if (!result.success) {
    const issues = result.issues.slice(0, maxListedIssues);
    throw new Invalid(formatIssues(issues), validationIssues(issues));
  }
  return result.output;
};
