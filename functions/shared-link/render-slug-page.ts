import { SlugPageParams } from '#shared/dto/v1/shared-link.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import type { RawResponse } from '#shared/http/response.ts';
import { htmlPage, requestOrigin } from '#shared/http/share-page.ts';
import { sharePageHtml, slugPageTags } from '#shared/services/share-page.service.ts';

/**
 * GET /s/{slug+}: Immich v3's web app for a link with a custom URL, with the link's Open Graph
 * tags as `/share/<key>` has them (docs/web-app.md, "Share pages"). Immich reads all of the path
 * after `/s/` as the slug; a path no slug names is the app as it is.
 */
export const handler = publicHandler({ returns: returns<RawResponse>(), params: SlugPageParams }, async ({ params, event }) =>
  htmlPage(await sharePageHtml(requestOrigin(event), (origin) => slugPageTags(params.slug, origin))),
);
