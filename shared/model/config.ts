import * as v from 'valibot';

/** The stored configuration: only the values that differ from the defaults, by dot path. */
export const StoredConfigSchema = v.object({
  overrides: v.optional(v.record(v.string(), v.unknown()), {}),
  /** 0 when nothing was ever stored; each write adds one. */
  version: v.number(),
});
export type StoredConfig = v.InferOutput<typeof StoredConfigSchema>;
