import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { bundling } from '#infra/cdk/bundling.ts';
import { coldImportMs } from './functions.ts';
import { median, table } from './stats.ts';

const root = join(import.meta.dirname, '..', '..');
const version = '2.36.0';
const runs = 20;

/**
 * Whether AWS Lambda Powertools (logger, metrics, tracer) is worth its cold start here: each
 * variant is a handler that logs one request line with a metric, bundled with the stack's esbuild
 * settings, against the same handler on shared/core/log.ts. Powertools is installed into a
 * scratch folder from the npm registry, not into the project.
 */
export const powertoolsSection = {
  name: 'powertools',
  async run(): Promise<string> {
    const work = mkdtempSync(join(tmpdir(), 'bench-powertools-'));
    try {
      execFileSync(
        'npm',
        [
          'install',
          '--no-save',
          '--no-audit',
          '--no-fund',
          '--prefix',
          work,
          ...['logger', 'metrics', 'tracer'].map((p) => `@aws-lambda-powertools/${p}@${version}`),
        ],
        {
          stdio: 'ignore',
        },
      );
      const variants: Record<string, string> = {
        'shared/core/log.ts (ours)': `import { log } from '${join(root, 'shared/core/log.ts')}';
export const handler = async () => { log.info('request', { route: 'GET /x', status: 200, requests: 1 }); return { statusCode: 200 }; };`,
        'Powertools logger': `import { Logger } from '@aws-lambda-powertools/logger';
const logger = new Logger({ serviceName: 'immich' });
export const handler = async () => { logger.info('request', { route: 'GET /x', status: 200 }); return { statusCode: 200 }; };`,
        'Powertools logger + metrics': `import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
const logger = new Logger({ serviceName: 'immich' });
const metrics = new Metrics({ namespace: 'ImmichServerless', serviceName: 'immich' });
export const handler = async () => { logger.info('request'); metrics.addMetric('requests', MetricUnit.Count, 1); metrics.publishStoredMetrics(); return { statusCode: 200 }; };`,
        'Powertools logger + metrics + tracer': `import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';
const logger = new Logger({ serviceName: 'immich' });
const metrics = new Metrics({ namespace: 'ImmichServerless', serviceName: 'immich' });
const tracer = new Tracer({ serviceName: 'immich' });
export const handler = async () => { tracer.putAnnotation('route', 'GET /x'); logger.info('request'); metrics.addMetric('requests', MetricUnit.Count, 1); metrics.publishStoredMetrics(); return { statusCode: 200 }; };`,
      };
      const rows: string[][] = [];
      mkdirSync(join(work, 'out'), { recursive: true });
      for (const [name, source] of Object.entries(variants)) {
        const entry = join(work, `${rows.length}.ts`);
        const outfile = join(work, 'out', `${rows.length}.mjs`);
        writeFileSync(entry, source);
        await build({
          entryPoints: [entry],
          outfile,
          bundle: true,
          platform: 'node',
          format: 'esm',
          target: bundling.target,
          minify: bundling.minify,
          mainFields: [...bundling.mainFields],
          banner: { js: bundling.banner },
          alias: { ...bundling.alias },
          nodePaths: [join(work, 'node_modules')],
          logLevel: 'silent',
        });
        const samples = Array.from({ length: runs }, () => coldImportMs(outfile));
        rows.push([name, (statSync(outfile).size / 1024).toFixed(1), median(samples).toFixed(1)]);
      }
      return [
        `Powertools ${version}; each handler bundled with the stack's esbuild settings and imported by ${runs} fresh Node processes (median).`,
        '',
        table(['handler', 'bundle KB', 'cold import ms'], rows),
      ].join('\n');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};
