import { expect } from 'vitest';
import { handler as generateMedia } from '#functions/media/generate-media.ts';
import { handler as getConfig } from '#functions/system-config/get-config.ts';
import { handler as updateConfig } from '#functions/system-config/update-config.ts';
import { type MediaJob, type MediaJobEvent, runMediaJobsWith } from '#shared/storage/media-jobs.ts';
import { bearer } from './accounts.ts';
import { invoke } from './invoke.ts';
import { type MlTask, withMlTasksOff } from './ml-tasks.ts';

/** What the originals bucket sends the media function for an object (keys URL-encoded), answered with its outcomes. */
export const objectCreated = (key: string) =>
  generateMedia({ Records: [{ s3: { object: { key: encodeURIComponent(key).replace(/%2F/g, '/') } } }] });

/**
 * The one way tests run the media function's jobs in this process, as the local server runs them
 * (infra/local/http-server.ts): `start` in a file's beforeAll (or a test's body), `stop` in its
 * afterAll (or a `finally`). Each job an API function hands on is recorded in `handed` and, unless
 * `{ run: false }` (a test of what is handed on, not of what it makes), given to the media
 * function's handler at once; `runs` holds each run's answer (its outcomes), in order. `run` hands
 * jobs on as an API function would, without one; `settle` waits for every run so far, and for the
 * runs those hand on in turn. Bucket events go through `objectCreated`.
 */
export const mediaJobsInProcess = ({ run = true }: { run?: boolean } = {}) => {
  const handed: MediaJob[] = [];
  const runs: Promise<unknown>[] = [];
  let settled = 0;
  const hand = (event: MediaJobEvent) => {
    handed.push(...event.jobs);
    if (run) runs.push(generateMedia(event));
  };
  return {
    start: () => runMediaJobsWith(hand),
    stop: () => runMediaJobsWith(undefined),
    /** Every job handed on since `start` (or since the last `forget`). */
    handed,
    /** Each run's answer, in the order the jobs were handed on. */
    runs,
    run: (jobs: MediaJob[]) => hand({ jobs }),
    settle: async () => {
      while (settled < runs.length) await runs[settled++];
    },
    /** Forgets the jobs handed on so far (`handed` empty again). */
    forget: () => {
      handed.length = 0;
    },
  };
};

/** Changes the system configuration as the admin's settings page does: the whole of it, read, changed and put back. */
export const changeConfig = async (adminToken: string, change: (config: Record<string, any>) => Record<string, any>) => {
  const config = (await invoke(getConfig, { path: '/api/system-config', headers: bearer(adminToken) })).body;
  const reply = await invoke(updateConfig, {
    method: 'PUT',
    path: '/api/system-config',
    headers: bearer(adminToken),
    body: change(config),
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
};

/** Machine learning's `tasks` off (test/support/ml-tasks.ts), by the admin's token. */
export const turnOffMl = (adminToken: string, tasks: readonly MlTask[]) => changeConfig(adminToken, withMlTasksOff(tasks));
