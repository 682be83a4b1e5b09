import { SharePageParams } from '#shared/dto/v1/shared-link.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import type { RawResponse } from '#shared/http/response.ts';
import { htmlPage, requestOrigin } from '#shared/http/share-page.ts';
import { sharePageHtml, sharePageTags } from '#shared/services/share-page.service.ts';

/**
 * GET /share/{key+}: Immich's web app for a shared link, with the link's Open Graph tags (Immich's
 * server-side rendering of share pages; docs/web-app.md, "Share pages"); a route below a key
 * (`/share/<key>/photos/<id>`) is the app as it is.
 */
export const handler = publicHandler({ returns: returns<RawResponse>(), params: SharePageParams }, async ({ params, event }) =>
  htmlPage(await sharePageHtml(requestOrigin(event), params.key.includes('/') ? undefined : (origin) => sharePageTags(params.key, origin))),
);
