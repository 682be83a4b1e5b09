import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AssetHashType, Stack } from 'aws-cdk-lib';
import { Asset } from 'aws-cdk-lib/aws-s3-assets';
import type { Construct } from 'constructs';
import { buildSync } from 'esbuild';
import { isAssetUpload, type LazyGroup, routes } from '../routes.ts';
import { copyBesideNow, esbuildOptions, lazyModuleFiles } from './bundling.ts';

/** The ingress's entry (infra/ingress/main.ts) and its bundle's file name inside the asset. */
export const ingressEntry = 'infra/ingress/main.ts';
export const ingressBundleFile = 'main.mjs';

/** The groups of modules the upload routes load on first use: the ingress runs the same upload operation. */
export const ingressLazyGroups = (): LazyGroup[] => [...new Set(routes.filter(isAssetUpload).flatMap((route) => route.lazy ?? []))];

const temporary = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/**
 * The ingress's code as an S3 asset (a zip of one folder): `main.mjs`, the esbuild bundle of
 * `infra/ingress/main.ts` with the functions' settings (`esbuildOptions`: ESM, node24, minified,
 * the same modules loaded on first use kept outside and copied beside it as the upload routes'),
 * but WITHOUT the Lambda runtime stand-ins of infra/cdk/runtime/ (the `alias` table): on the
 * instance the AWS SDK needs its real credential chain (the instance profile, through IMDS) and
 * Node's own `node:http(s)`. Without bundling (`aws:cdk:bundling-stacks`, the infrastructure
 * tests), an empty `main.mjs`, as the route bundles are then (infra/cdk/route-bundles.ts).
 */
export const ingressBundle = (scope: Construct, id: string): Asset => {
  const dir = temporary('immich-ingress-');
  if (!Stack.of(scope).bundlingRequired) {
    writeFileSync(join(dir, ingressBundleFile), '');
    return new Asset(scope, id, { path: dir, assetHashType: AssetHashType.CUSTOM, assetHash: 'immich-ingress-unbundled' });
  }
  const { alias: _standIns, ...options } = esbuildOptions(ingressEntry, join(dir, ingressBundleFile));
  const result = buildSync(options);
  if (result.errors.length > 0) throw new Error(`Bundling the ingress failed: ${result.errors.map((error) => error.text).join('; ')}`);
  copyBesideNow(lazyModuleFiles(ingressLazyGroups()), dir);
  return new Asset(scope, id, { path: dir });
};
