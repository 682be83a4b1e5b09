import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest's order (longest first, from the last run's durations; larger files first on a fresh
 * clone), with the `deployed` project's files last instead of first: they need the synthesized
 * stack, which test/setup/assembly-setup.ts makes in the background while the others run.
 */
export default class DeployedLast extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const deployed = (spec: TestSpecification) => spec.project.name === 'deployed';
    return [...sorted.filter((spec) => !deployed(spec)), ...sorted.filter(deployed)];
  }
}
