import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { HttpResponse } from './response.ts';

/**
 * How a path both generations share tells their clients apart (docs/immich-compatibility.md,
 * "Paths both generations share"). The 3.x mobile apps name themselves in every request
 * (`User-Agent: immich-android/3.1.0`, `immich-ios/3.1.0`).
 */
export const isV3App = (event: Pick<APIGatewayProxyEventV2, 'headers'>): boolean =>
  /^immich-(android|ios)\//i.test(event.headers['user-agent'] ?? '');

/**
 * A v3 client on a path whose v1.100 operation is read as text: v3's SDK asks for JSON
 * (`Accept: application/json`) where v1.100's SDK asks for nothing; or one of v3's apps.
 */
export const isV3Client = (event: APIGatewayProxyEventV2): boolean =>
  isV3App(event) || (event.headers.accept ?? '').includes('application/json');

/** v3's `{count}` (200) for a v3 client, v1.100's empty 204 for the rest (the trash routes). */
export const countOrNoContent = (event: APIGatewayProxyEventV2, count: number): HttpResponse<{ count: number } | undefined> =>
  isV3Client(event) ? new HttpResponse({ count }, { status: 200 }) : new HttpResponse(undefined, { status: 204 });
