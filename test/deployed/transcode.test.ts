import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DeployedFunction } from '#infra/local/deployed/assembly.ts';
import { routes } from '#infra/routes.ts';
import { useDeployedStack } from '../support/deployed-stack.ts';

/**
 * The transcode function as the template deploys it (infra/cdk/transcode-function.ts): its bundle
 * with ffmpeg and ffprobe beside it, its settings, and MediaConvert's job state changes reaching it
 * through the template's EventBridge rule, its AWS calls checked against its role. (Encoding a
 * video through the deployed form is the e2e suite's transcode test.)
 */
const stack = useDeployedStack();

const transcodeFunction = (): DeployedFunction => {
  const fn = [...stack.current.api.deployment.functions.values()].find((each) => each.description.startsWith('Immich transcode'));
  if (!fn) throw new Error('No transcode function in the template');
  return fn;
};

/** MediaConvert's "job state change" for an asset, as EventBridge puts it on the bus. */
/** An owner's id, as the encoded versions' keys have one. */
const owner = randomUUID();

const stateChange = (status: string, assetId: string, stackName = 'ImmichServerless') => ({
  source: 'aws.mediaconvert',
  'detail-type': 'MediaConvert Job State Change',
  detail: {
    jobId: `1700000000000-${assetId.slice(0, 6)}`,
    status,
    userMetadata: { assetId, ownerId: owner, stack: stackName },
    outputGroupDetails: [
      {
        type: 'FILE_GROUP',
        outputDetails: [
          {
            outputFilePaths: [`s3://immich-originals/thumbs/${owner}/${assetId.slice(0, 2)}/${assetId.slice(2, 4)}/${assetId}-encoded.mp4`],
          },
        ],
      },
    ],
  },
});

describe('the transcode function, deployed form', () => {
  it('runs from its bundle with linux-arm64 ffmpeg and ffprobe beside it in bin/, with the template’s memory, timeout and settings', () => {
    const fn = transcodeFunction();
    expect(fn.memoryMb).toBe(10_240);
    expect(fn.timeoutSeconds).toBe(900);
    expect(fn.environment).toMatchObject({ TRANSCODE_LAMBDA_MAX_SECONDS: '600', STACK_NAME: 'ImmichServerless' });
    expect(fn.environment.MEDIACONVERT_ROLE_ARN).toMatch(/^arn:aws:iam::000000000000:role\//);
    for (const name of ['ffmpeg', 'ffprobe']) {
      const file = join(fn.codeDir, 'bin', name);
      expect(existsSync(file), name).toBe(true);
      expect(statSync(file).mode & 0o111, name).not.toBe(0);
      // An ELF executable for AArch64 (e_machine 183), as Lambda's arm64 runs.
      const header = readFileSync(file).subarray(0, 20);
      expect(header.subarray(0, 4).toString('latin1'), name).toBe('\x7fELF');
      expect(header.readUInt16LE(18), name).toBe(183);
    }
  });

  it('gets this stack’s MediaConvert ends through the template’s rule, and not another stack’s or another state; its calls go through its role', async () => {
    const { api, denied, failures } = stack.current;
    expect(api.deployment.eventRules.map((rule) => rule.functionId)).toEqual([transcodeFunction().id]);
    expect(api.putEvent(stateChange('PROGRESSING', randomUUID()))).toBe(0);
    expect(api.putEvent(stateChange('COMPLETE', randomUUID(), 'AnotherStack'))).toBe(0);

    // A job whose asset is gone: the function removes what the job wrote (its role may, under thumbs/).
    const gone = randomUUID();
    expect(api.putEvent(stateChange('COMPLETE', gone))).toBe(1);
    expect(api.putEvent(stateChange('ERROR', randomUUID()))).toBe(1);
    await api.idle();
    expect(failures).toEqual([]);
    expect(denied).toEqual([]);

    // Without the grant, the same call is refused: the function did make it, under its own role.
    const role = transcodeFunction().roleArn;
    const statements = api.deployment.policies.get(role) ?? [];
    api.deployment.policies.set(
      role,
      statements.filter((statement) => !statement.Action.includes('s3:DeleteObject')),
    );
    try {
      const again = randomUUID();
      expect(api.putEvent(stateChange('COMPLETE', again))).toBe(1);
      await api.idle();
      // (Once per attempt, should the refusal fail the invocation and Lambda retry it.)
      expect(new Set(denied)).toEqual(
        new Set([
          `${transcodeFunction().id}: s3:DeleteObject on arn:aws:s3:::immich-originals/thumbs/${owner}/${again.slice(0, 2)}/${again.slice(2, 4)}/${again}-encoded.mp4`,
        ]),
      );
    } finally {
      api.deployment.policies.set(role, statements);
      failures.length = 0;
    }
  });

  it('is invoked asynchronously by the routes that queue conversions, as their role allows (the local Invoke path reaches it)', () => {
    const { deployment } = stack.current.api;
    const fn = transcodeFunction();
    const queuing = [...deployment.functions.values()].filter((each) => each.environment.TRANSCODE_FUNCTION);
    // The media function and the rows with `transcodeJobs` (v1.100's and v3's asset jobs, the job command).
    expect(queuing.map((each) => each.description).sort()).toEqual(
      [
        ...routes
          .filter((route) => route.transcodeJobs)
          .map(
            (route) => `Immich API ${route.generation ? `${route.generation}:` : ''}${route.operationId} (${route.method} ${route.path})`,
          ),
        'Immich media: previews, thumbhash, video posters, places and faces of each uploaded original',
      ].sort(),
    );
    for (const each of queuing) {
      expect(each.environment.TRANSCODE_FUNCTION?.split(':').pop()).toBe(fn.id.split('/').pop());
      const grants = (deployment.policies.get(each.roleArn) ?? []).filter((statement) =>
        statement.Action.includes('lambda:InvokeFunction'),
      );
      expect(grants.some((statement) => statement.Resource.some((resource) => resource.endsWith(`:${fn.id.split('/').pop()}`)))).toBe(true);
    }
  });
});
