import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assemblyInputs, forgetAssembly, isAssemblyCurrent, recordAssembly } from '#infra/local/assembly-inputs.ts';

const scratch = mkdtempSync(join(tmpdir(), 'assembly-inputs-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A checkout with a few of the files a synth reads, and an assembly as `cdk synth` writes one. */
const checkout = (name: string) => {
  const root = join(scratch, name);
  for (const dir of ['functions/album', 'shared/core', 'infra/cdk', 'cdk.out']) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, 'functions/album/get-album.ts'), 'export const handler = 1;');
  writeFileSync(join(root, 'shared/core/env.ts'), 'export const x = 1;');
  writeFileSync(join(root, 'infra/cdk/stack.ts'), 'export class Stack {}');
  writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion":3}');
  writeFileSync(join(root, 'cdk.out/manifest.json'), '{"version":"1"}');
  writeFileSync(join(root, 'cdk.out/ImmichServerless.template.json'), '{"Resources":{}}');
  return { root, assembly: join(root, 'cdk.out') };
};

const settings = { WEB_DIR: '', STACK_NAME: undefined };

describe('npm run start:deployed reuses cdk.out only when nothing the synth reads has changed', () => {
  it('serves the last synth again when the inputs are the same', () => {
    const { root, assembly } = checkout('same');
    const inputs = assemblyInputs(root, settings);
    expect(isAssemblyCurrent(assembly, inputs)).toBe(false);
    recordAssembly(assembly, inputs);
    expect(isAssemblyCurrent(assembly, assemblyInputs(root, settings))).toBe(true);
  });

  it('synthesizes again after a change to the code, the stack, the dependencies or a setting', () => {
    const { root, assembly } = checkout('changed');
    recordAssembly(assembly, assemblyInputs(root, settings));
    const changes: [string, string][] = [
      ['functions/album/get-album.ts', 'export const handler = 2;'],
      ['shared/core/new-module.ts', 'export const y = 1;'],
      ['infra/cdk/stack.ts', 'export class Stack { memory = 2 }'],
      ['package-lock.json', '{"lockfileVersion":3,"packages":{}}'],
      ['cdk.json', '{"context":{"tracing":"true"}}'],
    ];
    for (const [file, text] of changes) {
      writeFileSync(join(root, file), text);
      expect(isAssemblyCurrent(assembly, assemblyInputs(root, settings)), file).toBe(false);
      recordAssembly(assembly, assemblyInputs(root, settings));
    }
    expect(isAssemblyCurrent(assembly, assemblyInputs(root, { ...settings, STACK_NAME: 'Other' }))).toBe(false);
    expect(isAssemblyCurrent(assembly, assemblyInputs(root, settings))).toBe(true);
  });

  it('synthesizes again when another command rewrote the assembly (cdk deploy), or when the last synth did not finish', () => {
    const { root, assembly } = checkout('rewritten');
    const inputs = assemblyInputs(root, settings);
    recordAssembly(assembly, inputs);
    writeFileSync(join(assembly, 'ImmichServerless.template.json'), '{"Resources":{"Other":{}}}');
    expect(isAssemblyCurrent(assembly, inputs)).toBe(false);
    recordAssembly(assembly, inputs);
    forgetAssembly(assembly);
    expect(isAssemblyCurrent(assembly, inputs)).toBe(false);
  });
});
