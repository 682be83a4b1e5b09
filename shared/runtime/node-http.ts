/**
 * Stand-in for `node:http` inside Lambda bundles (esbuild alias, infra/bundling.ts). middy's
 * util imports `STATUS_CODES` from node:http; an ESM import of node:http costs ~20–30 ms of cold
 * start on Node 24, a `require` of it ~3 ms. Any other name imported from node:http fails the
 * build, so this can never silently hand out something incomplete.
 */
import { createRequire } from 'node:module';

const http = createRequire(import.meta.url)('node:http') as typeof import('node:http');

export const STATUS_CODES = http.STATUS_CODES;
