/**
 * The HTTP side of both share pages (`/share/<key>`, `/s/<slug>`: functions/shared-link/render-*-page.ts;
 * docs/web-app.md, "Share pages"): the origin the visitor reached, and the page as an answer.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { RawResponse } from './response.ts';

/** A header's first value (a proxy may have appended its own after the client's). */
const firstOf = (value: string | undefined): string | undefined => value?.split(',')[0]?.trim() || undefined;

/** A host as a URL takes it: a name or an address, and a port. */
const hostPattern = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The origin the visitor reached, as Immich reads it behind a proxy (`request.protocol`,
 * `request.host`): the host the distribution passes on (`x-viewer-host`: CloudFront sends the API
 * its own host, so its function for these pages copies the viewer's, infra/web-app.ts), else a
 * proxy's `x-forwarded-host`, else `host`; the scheme from `x-forwarded-proto` (API Gateway's,
 * `https` deployed), else `http` (`npm start`). A value that is no host is left out.
 */
export const requestOrigin = (event: Pick<APIGatewayProxyEventV2, 'headers' | 'requestContext'>): string => {
  const headers = event.headers ?? {};
  const host =
    [firstOf(headers['x-viewer-host']), firstOf(headers['x-forwarded-host']), firstOf(headers.host)].find(
      (each) => each !== undefined && hostPattern.test(each),
    ) ?? event.requestContext.domainName;
  const proto = firstOf(headers['x-forwarded-proto']);
  return `${proto === 'https' ? 'https' : 'http'}://${host}`;
};

/** A page of the app: HTML, never stored (it names a link's contents, which change). */
export const htmlPage = (html: string): RawResponse =>
  new RawResponse({
    statusCode: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    body: html,
  });
