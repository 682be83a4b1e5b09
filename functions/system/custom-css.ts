import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { RawResponse } from '#shared/http/response.ts';
import { getServerSettings } from '#shared/services/server-info.service.ts';

/**
 * GET /custom.css: the theme's custom CSS (system config `theme.customCss`), which Immich's web
 * app links from every page, answered as a stylesheet (Immich's AppController). Never cached: an
 * admin's change shows on the next page load.
 */
export const handler = publicHandler(
  { returns: returns<RawResponse>() },
  async () =>
    new RawResponse({
      statusCode: 200,
      headers: { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'no-cache' },
      body: (await getServerSettings()).theme.customCss,
    }),
);
