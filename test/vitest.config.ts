import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import DeployedLast from './setup/sequencer.ts';
import { hangGuard } from './support/timeouts.ts';

const root = join(import.meta.dirname, '..');

/**
 * Three projects. `unit`: pure code (schemas, mappers, key builders, the search predicate, crypto,
 * the import graph), with no DynamoDB Local and no Java. `integration`: handlers, the local
 * server, the CLI and the CDK stack against one DynamoDB Local for the whole run, a table per file.
 * `deployed`: the e2e suite against the synthesized stack served locally (test/support/server.ts).
 */
export default defineConfig({
  test: {
    root,
    reporters: ['default', './test/setup/summary-reporter.ts'],
    // Vitest's default is one worker fewer than the cores: one, on these 2-core machines, while
    // most files wait on DynamoDB Local and servers in other processes. Two files at a time.
    maxWorkers: 2,
    // The deployed project's files after the others, while its stack is synthesized (test/setup/assembly-setup.ts).
    sequence: { sequencer: DeployedLast },
    // Ending DynamoDB Local and the servers after the run waits for them, however busy the machine.
    teardownTimeout: hangGuard.test,
    projects: [
      {
        test: {
          name: 'unit',
          root,
          include: ['test/unit/**/*.test.ts'],
          // Hang guards only (test/support/timeouts.ts): no test here may fail for being slow.
          testTimeout: hangGuard.test,
          hookTimeout: hangGuard.test,
          // Handler modules read these at import; nothing here connects anywhere.
          env: {
            LOG_LEVEL: 'silent',
            TABLE_NAME: 'unit-tests-have-no-table',
            AWS_REGION: 'us-east-1',
            SHARED_LINK_SECRET: 'unit-test-secret',
          },
        },
      },
      {
        test: {
          name: 'integration',
          root,
          include: ['test/functions/**/*.test.ts', 'test/infra/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          // Checked on the deployed project's synthesized bundles instead of bundling every route again.
          exclude: ['test/infra/bundle.test.ts'],
          globalSetup: ['test/setup/global-setup.ts'],
          setupFiles: ['test/setup/table.ts'],
          testTimeout: hangGuard.test,
          hookTimeout: hangGuard.test,
          env: { LOG_LEVEL: 'silent' },
        },
      },
      {
        test: {
          name: 'deployed',
          root,
          // The e2e suite again, against the synthesized template (bundles, environment, IAM) as
          // `npm run start:deployed` serves it, and the checks of that form itself. local-server
          // starts `npm start` itself; start-deployed.test.ts is its counterpart here. bundle.test.ts
          // runs the bundles this project's synth wrote, rather than building them again.
          include: ['test/e2e/**/*.test.ts', 'test/deployed/**/*.test.ts', 'test/infra/bundle.test.ts'],
          exclude: ['test/e2e/local-server.test.ts'],
          globalSetup: ['test/setup/global-setup.ts', 'test/setup/assembly-setup.ts'],
          setupFiles: ['test/setup/table.ts'],
          testTimeout: hangGuard.test,
          hookTimeout: hangGuard.test,
          env: { LOG_LEVEL: 'silent', E2E_TARGET: 'deployed' },
        },
      },
    ],
  },
});
