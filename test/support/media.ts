import { expect } from 'vitest';
import { handler as generateMedia } from '#functions/media/generate-media.ts';
import { handler as getConfig } from '#functions/system-config/get-config.ts';
import { handler as updateConfig } from '#functions/system-config/update-config.ts';
import { runMediaJobsWith } from '#shared/storage/media-jobs.ts';
import { bearer } from './accounts.ts';
import { invoke } from './invoke.ts';

/** What the originals bucket sends the media function for an object (keys URL-encoded), answered with its outcomes. */
export const objectCreated = (key: string) =>
  generateMedia({ Records: [{ s3: { object: { key: encodeURIComponent(key).replace(/%2F/g, '/') } } }] });

/**
 * Jobs handed to the media function run here, in this process, as the local server runs them:
 * `start` in a file's beforeAll, `stop` in its afterAll; `settle` waits for the jobs handed on so
 * far, and those they hand on in turn.
 */
export const mediaJobsInProcess = () => {
  const jobs: Promise<unknown>[] = [];
  return {
    start: () => runMediaJobsWith((event) => jobs.push(generateMedia(event))),
    stop: () => runMediaJobsWith(undefined),
    settle: async () => {
      while (jobs.length > 0) await jobs.shift();
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
