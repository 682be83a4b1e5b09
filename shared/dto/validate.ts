import * as v from 'valibot';
import { Invalid } from '../core/errors.ts';

/**
 * Turns valibot issues into class-validator's messages, as Immich (NestJS ValidationPipe) sends
 * them. Schemas write messages with a `$property` placeholder (class-validator's own token); here
 * it becomes the property's name and the parent path is prefixed with dots, so a nested
 * `crf` rule reads `ffmpeg.crf must not be greater than 51`, and a custom message without the
 * placeholder still gets its parent path (`library.scan.Invalid cron expression`).
 */
export const formatIssue = (issue: v.BaseIssue<unknown>): string => {
  const keys = (issue.path ?? [])
    .map((item) => item.key)
    // Array items are named by their index, as Nest does: `assets.0.checksum should not be empty`.
    .flatMap((key) => (typeof key === 'string' ? [key] : typeof key === 'number' ? [String(key)] : []));
  const property = keys.at(-1) ?? 'value';
  const parents = keys.slice(0, -1);
  const message = issue.message.replaceAll('$property', property);
  return parents.length > 0 ? `${parents.join('.')}.${message}` : message;
};

export const formatIssues = (issues: readonly v.BaseIssue<unknown>[]): string[] => [...new Set(issues.map(formatIssue))];

/** Parses `input` with `schema`, or throws `Invalid` with every message (Immich's 400). */
export const parseOrThrow = <S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> => {
  const result = v.safeParse(schema, input);
  if (!result.success) throw new Invalid(formatIssues(result.issues));
  return result.output;
};
