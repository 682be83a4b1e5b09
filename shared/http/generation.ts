import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as env from '../core/env.ts';
import type { Generation } from '../model/realtime.ts';
import { HttpResponse } from './response.ts';

type Request = Pick<APIGatewayProxyEventV2, 'headers'>;

/**
 * How a path both generations share tells their clients apart (docs/immich-compatibility.md,
 * "Paths both generations share"). The 3.x mobile apps name themselves in every request
 * (`User-Agent: immich-android/3.1.0`, `immich-ios/3.1.0`).
 */
export const isV3App = (event: Request): boolean => /^immich-(android|ios)\//i.test(event.headers['user-agent'] ?? '');

/**
 * The request asks for JSON (`Accept: application/json`), as v3's SDK, web app and apps always
 * do; Immich v1.100's own e2e suite (supertest), curl and v1.100's SDK on a route it reads as text
 * do not.
 */
export const asksForJson = (event: Request): boolean => (event.headers.accept ?? '').includes('application/json');

/**
 * A v3 client on a path whose v1.100 operation is read as text: v3's SDK asks for JSON
 * (`Accept: application/json`) where v1.100's SDK asks for nothing; or one of v3's apps.
 */
const isV3Client = (event: APIGatewayProxyEventV2): boolean => isV3App(event) || asksForJson(event);

/**
 * Which generation's client sent a request on a path both generations share, where the client
 * names itself (docs/immich-compatibility.md, "Paths both generations share"):
 * - `v3`: Immich's 3.x apps (their User-Agent), and a browser while the web app served is v3's
 *   (`WEB_GENERATION`: the local server and the stack set it from the build);
 * - `v1`: a browser while the web app served is v1.100's, and Immich's v1.100 mobile app (Dart's
 *   own User-Agent, `Dart/3.3 (dart:io)`: the 3.x apps name themselves);
 * - `undefined`: anything else, a program on either SDK among them (either CLI too): both SDKs
 *   send the same request (oazapfts' `Accept: application/json`, the runtime's User-Agent), so
 *   nothing tells them apart, and each path says what such a request gets.
 */
export const clientGeneration = (event: Request): Generation | undefined => {
  if (isV3App(event)) return 'v3';
  const agent = event.headers['user-agent'] ?? '';
  if (/^Mozilla\//.test(agent)) return env.webGeneration();
  if (/^Dart\//.test(agent)) return 'v1';
  return undefined;
};

/** v3's `{count}` (200) for a v3 client, v1.100's empty 204 for the rest (the trash routes). */
export const countOrNoContent = (event: APIGatewayProxyEventV2, count: number): HttpResponse<{ count: number } | undefined> =>
  isV3Client(event) ? new HttpResponse({ count }, { status: 200 }) : new HttpResponse(undefined, { status: 204 });
