import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { NotFound } from '#shared/core/errors.ts';
import { log } from '#shared/core/log.ts';
import { SharePageParams } from '#shared/dto/v1/shared-link.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { RawResponse } from '#shared/http/response.ts';
import { type OpenGraphTags, renderSharePage, sharePageTags } from '#shared/services/share-page.service.ts';

/**
 * GET /share/{key+}: Immich's web app for a shared link, with the link's Open Graph tags (Immich's
 * server-side rendering of share pages; docs/web-app.md, "Share pages"). `WEB_INDEX` is the
 * build's `index.html`: beside the bundle deployed (relative to the task root, infra/cdk/api-function.ts),
 * in the build locally (absolute).
 * Never a 5xx for a page: if the link cannot be read, the app comes without tags, as Immich's.
 */
export const handler = publicHandler({ returns: returns<RawResponse>(), params: SharePageParams }, async ({ params }) => {
  const indexPath = process.env.WEB_INDEX && resolve(process.env.LAMBDA_TASK_ROOT ?? '.', process.env.WEB_INDEX);
  const index = indexPath ? await readFile(indexPath, 'utf8').catch(() => undefined) : undefined;
  if (index === undefined) throw new NotFound('No web app is served here');
  let tags: OpenGraphTags | null = null;
  // `/share/<key>` only: a route below it (`/share/<key>/photos/<id>`) is the app as it is.
  if (!params.key.includes('/')) {
    try {
      tags = await sharePageTags(params.key);
    } catch (error) {
      log.warn('Share page without tags', { error: String(error) });
    }
  }
  return new RawResponse({
    statusCode: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    body: renderSharePage(index, tags),
  });
});
