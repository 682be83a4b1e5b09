import * as v3 from '@immich/sdk-v3';
import type { SdkUser } from './sdk.ts';

/**
 * The machine-learning tasks every processed upload runs by default (the system config's
 * `machineLearning`): faces, OCR (the local PP-OCR models: about a third of a second of CPU per
 * photo, and seconds to load them in each process) and duplicate detection (a perceptual hash
 * and a Query per photo).
 */
export type MlTask = 'facialRecognition' | 'ocr' | 'duplicateDetection';

/**
 * The system config with `tasks` off, the rest as it is: for a test file that processes many
 * photos and is about none of them (docs/running.md, "How long the tests take"). The files about
 * a task keep it on; what a task does to an upload is tested there.
 */
export const withMlTasksOff =
  (tasks: readonly MlTask[]) =>
  <C extends Record<string, any>>(config: C): C => ({
    ...config,
    machineLearning: {
      ...config.machineLearning,
      ...Object.fromEntries(tasks.map((task) => [task, { ...config.machineLearning[task], enabled: false }])),
    },
  });

/** The same through @immich/sdk-v3 as the admin's settings page does (e2e files), by an admin's `SdkUser`. */
export const turnOffMlTasks = async (admin: SdkUser, tasks: readonly MlTask[]): Promise<void> => {
  const config = await v3.getConfig(admin);
  await v3.updateConfig({ adminConfigDto: withMlTasksOff(tasks)(config) }, admin);
};
