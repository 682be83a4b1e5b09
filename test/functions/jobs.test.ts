import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as runAssetJobsV1 } from '#functions/asset/run-asset-jobs.ts';
import { handler as getAllJobsStatus } from '#functions/job/get-all-jobs-status.ts';
import { handler as sendJobCommand } from '#functions/job/send-job-command.ts';
import { handler as runAssetJobs } from '#functions/v3/asset/run-asset-jobs.ts';
import { handler as createJob } from '#functions/v3/job/create-job.ts';
import { handler as emptyQueue } from '#functions/v3/queue/empty-queue.ts';
import { handler as getQueue } from '#functions/v3/queue/get-queue.ts';
import { handler as getQueueJobs } from '#functions/v3/queue/get-queue-jobs.ts';
import { handler as getQueues } from '#functions/v3/queue/get-queues.ts';
import { handler as updateQueue } from '#functions/v3/queue/update-queue.ts';
import { queueNames, queueNamesV1 } from '#shared/model/queue.ts';
import { recordRun } from '#shared/services/queue-runs.ts';
import { bearer, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, assetInfo } from '../support/library.ts';
import { mediaJobsInProcess, objectCreated } from '../support/media.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
// What the job commands hand the media function, recorded, not run.
const media = mediaJobsInProcess({ run: false });
beforeAll(async () => {
  accounts = await setupAccounts();
  media.start();
});
afterAll(() => media.stop());

const queue = async (name: string) =>
  (await invoke(getQueue, { path: `/api/queues/${name}`, headers: bearer(accounts.admin.accessToken), pathParameters: { name } })).body;
const command = (name: string, body: unknown, token = accounts.admin.accessToken) =>
  invoke(sendJobCommand, { method: 'PUT', path: `/api/jobs/${name}`, headers: bearer(token), pathParameters: { name }, body });

describe('jobs and queues (v3 /queues, /jobs; v1.100 /jobs)', () => {
  it("reports every queue; the media function's runs count in thumbnailGeneration as they finish or fail", async () => {
    const all = await invoke(getQueues, { path: '/api/queues', headers: bearer(accounts.admin.accessToken) });
    expect(all.status).toBe(200);
    expect(all.body.map((each: { name: string }) => each.name)).toEqual([...queueNames]);
    expect(all.body.find((each: { name: string }) => each.name === 'smartSearch')).toEqual({
      name: 'smartSearch',
      isPaused: false,
      statistics: { active: 0, completed: 0, delayed: 0, failed: 0, paused: 0, waiting: 0 },
    });

    const before = (await queue('thumbnailGeneration')).statistics;
    const token = accounts.user1.accessToken;
    const id = await addPhoto(token, { color: [40, 50, 60] });
    await objectCreated((await assetInfo(token, id)).body.originalPath);
    const after = (await queue('thumbnailGeneration')).statistics;
    expect(after.completed).toBe(before.completed + 1);
    expect(after.active).toBe(0);

    // A run that fails counts as failed; clear-failed (Immich's) clears the failures so far.
    await expect(
      recordRun('thumbnailGeneration', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await queue('thumbnailGeneration')).statistics.failed).toBe(after.failed + 1);
    const cleared = await command('thumbnailGeneration', { command: 'clear-failed', force: false });
    expect(cleared.body).toMatchObject({ jobCounts: { failed: 0 }, queueStatus: { isActive: false, isPaused: false } });

    // A run in progress is active, and starting the queue then is Immich's 400.
    let finish: () => void = () => {};
    const running = recordRun('thumbnailGeneration', () => new Promise<void>((resolve) => (finish = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await queue('thumbnailGeneration')).statistics.active).toBe(1);
    expect((await command('thumbnailGeneration', { command: 'start', force: false })).body).toMatchObject({
      message: 'Job is already running',
    });
    finish();
    await running;
    expect((await queue('thumbnailGeneration')).statistics.active).toBe(0);
  });

  it("answers v1.100's and v3's legacy shape at GET /jobs, and the commands that change nothing here with the status", async () => {
    const legacy = await invoke(getAllJobsStatus, { path: '/api/jobs', headers: bearer(accounts.admin.accessToken) });
    expect(Object.keys(legacy.body)).toEqual(expect.arrayContaining([...queueNamesV1]));
    expect(legacy.body.library).toEqual({
      jobCounts: { active: 0, completed: 0, delayed: 0, failed: 0, paused: 0, waiting: 0 },
      queueStatus: { isActive: false, isPaused: false },
    });
    for (const each of ['start', 'pause', 'resume', 'empty'])
      expect((await command('smartSearch', { command: each, force: true })).body).toMatchObject({ queueStatus: { isPaused: false } });
    expect((await command('nothing', { command: 'start', force: false })).status).toBe(400);
    expect((await command('library', { command: 'explode' })).status).toBe(400);

    const update = (name: string, body: unknown) =>
      invoke(updateQueue, {
        method: 'PUT',
        path: `/api/queues/${name}`,
        headers: bearer(accounts.admin.accessToken),
        pathParameters: { name },
        body,
      });
    expect((await update('backgroundTask', { isPaused: true })).body).toEqual({ message: 'The BackgroundTask queue cannot be paused' });
    expect((await update('thumbnailGeneration', { isPaused: true })).body).toMatchObject({ name: 'thumbnailGeneration', isPaused: false });
    const emptied = await invoke(emptyQueue, {
      method: 'DELETE',
      path: '/api/queues/thumbnailGeneration/jobs',
      headers: bearer(accounts.admin.accessToken),
      pathParameters: { name: 'thumbnailGeneration' },
      body: { failed: true },
    });
    expect(emptied.status).toBe(204);
    const jobs = await invoke(getQueueJobs, {
      path: '/api/queues/thumbnailGeneration/jobs',
      query: { status: 'waiting' },
      headers: bearer(accounts.admin.accessToken),
      pathParameters: { name: 'thumbnailGeneration' },
    });
    expect(jobs).toMatchObject({ status: 200, body: [] });
  });

  it('keeps the queues the admin’s: a user gets 403', async () => {
    expect((await invoke(getQueues, { path: '/api/queues', headers: bearer(accounts.user1.accessToken) })).status).toBe(403);
    expect((await command('library', { command: 'start' }, accounts.user1.accessToken)).status).toBe(403);
  });

  it('runs the admin’s manual jobs it has (the nightly clean-ups, memories) as background tasks; the rest are 400s', async () => {
    const before = (await queue('backgroundTask')).statistics.completed;
    const create = (name: string) =>
      invoke(createJob, { method: 'POST', path: '/api/jobs', headers: bearer(accounts.admin.accessToken), body: { name } });
    expect((await create('tag-cleanup')).status).toBe(204);
    expect((await create('memory-cleanup')).status).toBe(204);
    expect((await queue('backgroundTask')).statistics.completed).toBe(before + 2);
    expect((await create('backup-database')).body).toEqual({ message: 'The backup-database job is not supported by this server' });
    expect((await create('nonsense')).body).toMatchObject({ message: 'Validation failed' });
  });

  it('hands regenerate-thumbnail and refresh-metadata to the media function (both generations), for the caller’s own assets', async () => {
    const token = accounts.user2.accessToken;
    const [a, b] = [await addPhoto(token, { color: [70, 1, 1] }), await addPhoto(token, { color: [70, 2, 2] })];
    media.forget();
    const v3 = await invoke(runAssetJobs, {
      method: 'POST',
      path: '/api/assets/jobs',
      headers: bearer(token),
      body: { assetIds: [a, b], name: 'regenerate-thumbnail' },
    });
    expect(v3.status).toBe(204);
    expect(media.handed).toEqual([
      { kind: 'asset-media', assetId: a },
      { kind: 'asset-media', assetId: b },
    ]);
    const v1 = await invoke(runAssetJobsV1, {
      method: 'POST',
      path: '/api/asset/jobs',
      headers: bearer(token),
      body: { assetIds: [a], name: 'regenerate-thumbnail' },
    });
    expect(v1.status).toBe(204);
    const others = await invoke(runAssetJobs, {
      method: 'POST',
      path: '/api/assets/jobs',
      headers: bearer(accounts.user1.accessToken),
      body: { assetIds: [a], name: 'regenerate-thumbnail' },
    });
    expect(others.body).toMatchObject({ message: 'Not found or no asset.update access' });
    // Refreshing metadata names the asset's place again (docs/places.md).
    media.forget();
    const metadata = await invoke(runAssetJobs, {
      method: 'POST',
      path: '/api/assets/jobs',
      headers: bearer(token),
      body: { assetIds: [a], name: 'refresh-metadata' },
    });
    expect(metadata.status).toBe(204);
    expect(media.handed).toEqual([{ kind: 'asset-places', assetId: a }]);
    const transcode = await invoke(runAssetJobs, {
      method: 'POST',
      path: '/api/assets/jobs',
      headers: bearer(token),
      body: { assetIds: [a], name: 'transcode-video' },
    });
    // Transcoding is the transcode function's (test/functions/transcode.test.ts): a photo is no job for it, and nothing goes to the media function.
    expect(transcode.status).toBe(204);
    expect(media.handed).toEqual([{ kind: 'asset-places', assetId: a }]);
  });
});
