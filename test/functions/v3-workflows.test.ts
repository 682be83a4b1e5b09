import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createWorkflow } from '#functions/v3/workflow/create-workflow.ts';
import { handler as deleteWorkflow } from '#functions/v3/workflow/delete-workflow.ts';
import { handler as getWorkflow } from '#functions/v3/workflow/get-workflow.ts';
import { handler as getWorkflowForShare } from '#functions/v3/workflow/get-workflow-for-share.ts';
import { handler as getWorkflowLogs } from '#functions/v3/workflow/get-workflow-logs.ts';
import { handler as getWorkflowTriggers } from '#functions/v3/workflow/get-workflow-triggers.ts';
import { handler as searchWorkflows } from '#functions/v3/workflow/search-workflows.ts';
import { handler as updateWorkflow } from '#functions/v3/workflow/update-workflow.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const create = (token: string, body: unknown) =>
  invoke(createWorkflow, { method: 'POST', path: '/api/workflows', headers: bearer(token), body });
const byId = (token: string, id: string, suffix = '') => ({
  path: `/api/workflows/${id}${suffix}`,
  headers: bearer(token),
  pathParameters: { id },
});
const search = (token: string, query: Record<string, string> = {}) =>
  invoke(searchWorkflows, { path: '/api/workflows', query, headers: bearer(token) });
const ids = (workflows: { id: string }[]) => workflows.map((workflow) => workflow.id);

describe('workflows (v3): a user’s own, with no plugin methods to run', () => {
  it('lists Immich’s triggers to any signed-in caller', async () => {
    const reply = await invoke(getWorkflowTriggers, { path: '/api/workflows/triggers', headers: bearer(accounts.user1.accessToken) });
    expect(reply.body).toEqual([
      { trigger: 'AssetCreate', types: ['AssetV1'] },
      { trigger: 'AssetMetadataExtraction', types: ['AssetV1'] },
      { trigger: 'AssetTagged', types: ['AssetV1'] },
    ]);
    expect((await invoke(getWorkflowTriggers, { path: '/api/workflows/triggers' })).status).toBe(401);
  });

  it('creates, reads, searches, shares, updates and deletes the caller’s workflows', async () => {
    const token = (await freshUser(accounts.admin.accessToken, 'Automator')).accessToken;
    const first = await create(token, { trigger: 'AssetCreate', name: 'On upload' });
    expect(first).toMatchObject({
      status: 201,
      body: { trigger: 'AssetCreate', name: 'On upload', description: null, enabled: true, logging: false, steps: [] },
    });
    expect(first.body.createdAt).toBe(first.body.updatedAt);
    const second = await create(token, { trigger: 'AssetTagged', description: 'tags', enabled: false, logging: true, steps: [] });
    expect(second.body).toMatchObject({ name: null, description: 'tags', enabled: false, logging: true });

    expect((await invoke(getWorkflow, byId(token, first.body.id))).body).toEqual(first.body);
    expect((await invoke(getWorkflowForShare, byId(token, second.body.id, '/share'))).body).toEqual({
      trigger: 'AssetTagged',
      name: null,
      description: 'tags',
      steps: [],
    });
    // Newest first; Immich's search narrows by id, trigger and enabled.
    expect(ids((await search(token)).body)).toEqual([second.body.id, first.body.id]);
    expect(ids((await search(token, { trigger: 'AssetCreate' })).body)).toEqual([first.body.id]);
    expect(ids((await search(token, { enabled: 'false' })).body)).toEqual([second.body.id]);
    expect(ids((await search(token, { id: first.body.id })).body)).toEqual([first.body.id]);

    const updated = await invoke(updateWorkflow, {
      ...byId(token, first.body.id),
      method: 'PUT',
      body: { name: 'Renamed', trigger: 'AssetMetadataExtraction' },
    });
    expect(updated).toMatchObject({ status: 200, body: { name: 'Renamed', trigger: 'AssetMetadataExtraction', enabled: true } });
    expect(updated.body.updatedAt > first.body.updatedAt).toBe(true);
    expect((await invoke(getWorkflowLogs, byId(token, first.body.id, '/logs'))).body).toEqual([]);

    expect((await invoke(deleteWorkflow, { ...byId(token, first.body.id), method: 'DELETE' })).status).toBe(204);
    expect(ids((await search(token)).body)).toEqual([second.body.id]);
    expect((await invoke(getWorkflow, byId(token, first.body.id))).status).toBe(400);
  });

  it('refuses a step (no plugin method exists here), bad input, and everyone else’s workflow', async () => {
    const owner = accounts.user1.accessToken;
    const unknown = await create(owner, { trigger: 'AssetCreate', steps: [{ method: 'immich-core#archive', config: null }] });
    expect(unknown).toMatchObject({ status: 400, body: { message: 'Unknown method immich-core#archive' } });
    expect((await create(owner, { trigger: 'PersonRecognized' })).body).toMatchObject({ message: 'Validation failed' });
    expect((await create(owner, { name: 'no trigger' })).status).toBe(400);

    const mine = (await create(owner, { trigger: 'AssetCreate', name: 'Mine' })).body;
    const stranger = accounts.user2.accessToken;
    expect(await invoke(getWorkflow, byId(stranger, mine.id))).toMatchObject({
      status: 400,
      body: { message: 'Not found or no workflow.read access' },
    });
    expect((await invoke(updateWorkflow, { ...byId(stranger, mine.id), method: 'PUT', body: { name: 'Theirs' } })).body.message).toBe(
      'Not found or no workflow.update access',
    );
    expect((await invoke(deleteWorkflow, { ...byId(stranger, mine.id), method: 'DELETE' })).status).toBe(400);
    expect((await invoke(getWorkflowLogs, byId(stranger, mine.id, '/logs'))).status).toBe(400);
    expect(ids((await search(stranger)).body)).not.toContain(mine.id);
    // A step on update is refused too, and the workflow is left as it was.
    const stepped = await invoke(updateWorkflow, {
      ...byId(owner, mine.id),
      method: 'PUT',
      body: { name: 'x', steps: [{ method: 'a#b', config: {} }] },
    });
    expect(stepped.body.message).toBe('Unknown method a#b');
    expect((await invoke(getWorkflow, byId(owner, mine.id))).body.name).toBe('Mine');
  });
});
