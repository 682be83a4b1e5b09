import { existsSync, readFileSync } from 'node:fs';
import { inject } from 'vitest';

/**
 * The synthesized stack (`cdk synth --output`) of the `deployed` project, once its synth is done:
 * test/setup/assembly-setup.ts runs it in the background while other files run. Waits for it by
 * polling for its done file, which the synth always writes (done, failed, or ended by its hang
 * guard), so this wait needs no deadline of its own.
 */
export const deployedAssembly = async (): Promise<string> => {
  const { dir, done } = inject('assembly');
  while (!existsSync(done)) await new Promise((resolve) => setTimeout(resolve, 250));
  const result = JSON.parse(readFileSync(done, 'utf8')) as { ok: boolean; error?: string };
  if (!result.ok) throw new Error(result.error);
  return dir;
};
