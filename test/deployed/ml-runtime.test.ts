import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { onnx } from 'onnx-proto';
import { afterAll, describe, expect, it } from 'vitest';
import { lazyModuleFiles } from '#infra/cdk/bundling.ts';
import type { DeployedFunction } from '#infra/local/deployed/assembly.ts';
import { FunctionPool } from '#infra/local/deployed/lambda-pool.ts';
import { hostModules } from '#infra/local/deployed/start.ts';

/**
 * A function that runs a model in the deployed form, on this machine: its folder holds the `ml`
 * group as the stack copies it (onnxruntime-node with Lambda's linux-arm64 binding only:
 * infra/cdk/bundling.ts), and its bundle imports onnxruntime-node by name, as shared/ml/local/ does.
 */
const dir = mkdtempSync(join(tmpdir(), 'ml-runtime-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// y = x + x, as small as an ONNX graph gets.
const T = onnx.TensorProto.DataType;
const value = (name: string) =>
  onnx.ValueInfoProto.create({ name, type: { tensorType: { elemType: T.FLOAT, shape: { dim: [{ dimValue: 3 }] } } } });
const model = onnx.ModelProto.encode(
  onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 17 }],
    graph: onnx.GraphProto.create({
      name: 'double',
      node: [{ opType: 'Add', input: ['x', 'x'], output: ['y'] }],
      input: [value('x')],
      output: [value('y')],
    }),
  }),
).finish();

const codeDir = join(dir, 'Media');
mkdirSync(codeDir);
for (const { from, to } of lazyModuleFiles(['ml'])) {
  mkdirSync(dirname(join(codeDir, to)), { recursive: true });
  cpSync(from, join(codeDir, to), { recursive: true });
}
writeFileSync(join(codeDir, 'model.onnx'), model);
writeFileSync(
  join(codeDir, 'index.mjs'),
  `import { readFileSync } from 'node:fs';
export const handler = async () => {
  const ort = await import('onnxruntime-node');
  const session = await ort.InferenceSession.create(readFileSync(new URL('./model.onnx', import.meta.url)));
  const { y } = await session.run({ x: new ort.Tensor('float32', Float32Array.from([1, 2, 3]), [3]) });
  return Array.from(y.data);
};`,
);
const fn: DeployedFunction = {
  id: 'Media',
  codeDir,
  handler: 'index.handler',
  environment: {},
  memoryMb: 1024,
  timeoutSeconds: 60,
  roleArn: '',
  description: 'Media',
};
const context = { functionName: 'Media', awsRequestId: 'ml-runtime' };

describe('a function that runs models, served by start:deployed', () => {
  it('loads onnxruntime-node from beside its bundle, with this machine’s native build where Lambda’s cannot run', async () => {
    const pool = new FunctionPool(fn, { AWS_REGION: 'us-east-1' }, 1, hostModules(codeDir));
    try {
      expect(await pool.invoke({}, context)).toEqual({ ok: true, result: [2, 4, 6] });
    } finally {
      await pool.close();
    }
  });

  it('could not load it from the bundle’s folder alone on another architecture than Lambda’s (what hostModules is for)', async () => {
    const pool = new FunctionPool(fn, { AWS_REGION: 'us-east-1' }, 1);
    try {
      const outcome = await pool.invoke({}, context);
      if (process.arch === 'arm64') expect(outcome).toEqual({ ok: true, result: [2, 4, 6] });
      else {
        expect(hostModules(codeDir)).toEqual({ 'onnxruntime-node': expect.any(String) });
        expect(outcome).toMatchObject({ ok: false, message: expect.stringMatching(/onnxruntime_binding\.node/) });
      }
    } finally {
      await pool.close();
    }
  });
});
