/**
 * The expected outcome of a write (docs/architecture.md, "Expected outcomes"): done, with what it
 * produced, or refused for a named reason its condition stands for (`taken`, `gone`, `changed`,
 * `quota`, …), each repository function naming its reasons in its return type. Exceptions are for
 * the unexpected only (a bug, AWS failing, a corrupt item: CorruptItemError).
 */
export type Outcome<Reason extends string, Value = undefined> =
  | { readonly ok: true; readonly value: Value }
  | { readonly ok: false; readonly reason: Reason };

/** Done, with nothing to tell. */
export const done = (): Outcome<never> => ({ ok: true, value: undefined });

/** Done, with a value. */
export const doneWith = <Value>(value: Value): Outcome<never, Value> => ({ ok: true, value });

/** Refused for an expected reason. */
export const refused = <Reason extends string>(reason: Reason): Outcome<Reason, never> => ({ ok: false, reason });
