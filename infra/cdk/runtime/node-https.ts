/** See node-http.ts: `node:https` loaded with require instead of an ESM import. */
import { createRequire } from 'node:module';

const https = createRequire(import.meta.url)('node:https') as typeof import('node:https');

export default https;
export const request = https.request;
