/**
 * Every timeout in the tests is a hang guard, and these are all of them (docs/running.md, "How
 * long the tests take"): how long a test may make no progress before it fails instead of hanging
 * the run. None says how fast anything must be. A slow machine (two cores shared with other
 * jobs, a cold disk) is minutes slower in a whole run but never seconds-to-minutes slower in one
 * step, so it never reaches them; only something that would never finish does. How fast things
 * are is measured by `npm run bench` (docs/benchmarks.md), never asserted by a test.
 *
 * No test file names a number: a per-test `{ timeout }`, an `it(…, fn, ms)`, a `deadline =
 * Date.now() + ms` or a child process's `timeout` takes one of these (test/unit/timeouts.test.ts
 * fails otherwise). They nest: a wait or a child process gives up before the test around it does,
 * so the failure names what never came.
 */
export const hangGuard = {
  /** A test or a hook (vitest's `testTimeout` and `hookTimeout`, every project). */
  test: 20 * 60_000,
  /** A child process: the Immich CLI, the uploader, `cdk synth`, `node -e`. */
  process: 15 * 60_000,
  /**
   * Waiting for something the test started to show: a preview made in the background, a
   * realtime event, a server answering, a process ending. Each wait polls and returns as soon as
   * it sees it.
   */
  wait: 10 * 60_000,
} as const;
