/**
 * The page a shared link opens (`/share/<key>`, and `/s/<slug>` for a link with a custom URL):
 * Immich's web app (its `index.html`) with Open Graph and Twitter tags naming what the link
 * shows, so a link pasted into a chat or a mail shows a title, a description and a picture
 * (Immich's server-side rendering of share pages; docs/web-app.md, "Share pages"). No tags for a
 * link that needs a password, has expired, or does not exist: the page is then the app as for any
 * other route, and it says why.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { hashSharedLinkKey } from '../core/crypto.ts';
import { lambdaTaskRoot, webIndex } from '../core/env.ts';
import { NotFound } from '../core/errors.ts';
import { log } from '../core/log.ts';
import * as albumRepo from '../db/album.repository.ts';
import * as assetRepo from '../db/asset.repository.ts';
import * as sharedLinkRepo from '../db/shared-link.repository.ts';
import { byFileCreatedAt } from '../model/asset.ts';
import { limits } from '../model/limits.ts';
import type { SharedLinkKeyRecord } from '../model/shared-link.ts';
import { readConfig } from './config.reader.ts';

/** Immich's `OpenGraphTags`. */
export interface OpenGraphTags {
  title: string;
  description: string;
  imageUrl: string;
}

/** Where the app's `index.html` leaves room for the tags (Immich's web/src/app.html). */
const metadataPlaceholder = '<!-- metadata:tags -->';

/** A link key as Immich makes them (base64url of 50 bytes) or as its older clients send them (hex). */
const linkKeyPattern = /^(?:[A-Za-z0-9_-]{1,128})$/;

/**
 * The origin the picture's URL is absolute against, as Immich v3 makes it (`getExternalDomain`):
 * the configured `server.externalDomain` when set (and a URL), else the one the visitor reached
 * (`requestOrigin`, read from the request by the HTTP edge). A chat app fetches the picture
 * without the page, so a relative URL (Immich v1.100's) shows none.
 */
const pageOrigin = async (requestOrigin: string): Promise<string> => {
  const { externalDomain } = (await readConfig()).server;
  if (externalDomain && URL.canParse(externalDomain)) return externalDomain;
  return requestOrigin;
};

/**
 * The tags of a link a visitor may see, found by its key item, or null when it shows nothing to a
 * stranger: an unknown or expired link, a deleted owner, a password. Title: the album's name,
 * else "Public Share"; description: the link's, else how many photos and videos it shows; image:
 * the album's thumbnail (else its first photo) or the link's first photo, through the credential
 * the page was opened with (`?key=` or `?slug=`); else Immich's feature panel; absolute against `origin`.
 */
const linkTags = async (found: SharedLinkKeyRecord | undefined, credential: string, origin: string): Promise<OpenGraphTags | null> => {
  if (!found?.userActive || (found.expiresAt !== null && Date.parse(found.expiresAt) <= Date.now())) return null;
  const link = await sharedLinkRepo.get(found.userId, found.linkId);
  if (!link || link.passwordHash) return null;

  let title = 'Public Share';
  let assetIds: string[];
  let cover: string | null = null;
  if (link.type === 'ALBUM' && link.albumId) {
    const [album, members] = await Promise.all([albumRepo.get(link.userId, link.albumId), albumRepo.listMembers(link.albumId)]);
    if (!album) return null;
    title = album.albumName;
    assetIds = members.filter((member) => member.deletedAt === null).map((member) => member.assetId);
    cover = album.albumThumbnailAssetId;
  } else {
    // What the visitor sees first: the link's photos by date taken, the trashed left out.
    const assets = (await assetRepo.getMany(await sharedLinkRepo.listAssetIds(link.id))).filter((asset) => asset.deletedAt === null);
    assetIds = assets.sort(byFileCreatedAt('asc')).map((asset) => asset.id);
  }
  const imageId = cover ?? assetIds[0];
  const imagePath = imageId ? `/api/asset/thumbnail/${imageId}?${credential}` : '/feature-panel.png';
  return {
    title,
    description: link.description || `${assetIds.length} shared photos & videos`,
    imageUrl: new URL(imagePath, origin).href,
  };
};

/** The tags of `/share/<key>`. */
export const sharePageTags = async (key: string, origin: string): Promise<OpenGraphTags | null> => {
  if (!linkKeyPattern.test(key)) return null;
  return linkTags(await sharedLinkRepo.getByKeyHash(hashSharedLinkKey(key)), `key=${encodeURIComponent(key)}`, origin);
};

/**
 * The tags of `/s/<slug>`: the link the slug names (one GetItem more). Its picture is reached
 * with the slug, as the page was (Immich puts the link's key there: the same access, but this
 * page's function then never needs the deployment secret keys are derived from).
 */
export const slugPageTags = async (slug: string, origin: string): Promise<OpenGraphTags | null> => {
  if (slug.length === 0 || slug.length > limits.keyValue) return null;
  const named = await sharedLinkRepo.getBySlug(slug);
  if (!named) return null;
  return linkTags(await sharedLinkRepo.getByKeyHash(named.keyHash), `slug=${encodeURIComponent(slug)}`, origin);
};

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);

/**
 * The app's `index.html` with the tags in its placeholder, as Immich writes them, every value
 * escaped (Immich writes them as they are, so an album named `"><script>` would run in every
 * visitor's browser).
 */
export const renderSharePage = (index: string, tags: OpenGraphTags | null): string => {
  if (!tags) return index;
  const title = escapeHtml(tags.title);
  const description = escapeHtml(tags.description);
  const image = escapeHtml(tags.imageUrl);
  const lines = [
    `<meta name="description" content="${description}" />`,
    '<meta property="og:type" content="website" />',
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:image" content="${image}" />`,
    '<meta name="twitter:card" content="summary_large_image" />',
    `<meta name="twitter:title" content="${title}" />`,
    `<meta name="twitter:description" content="${description}" />`,
    `<meta name="twitter:image" content="${image}" />`,
  ];
  // A function, so `$&` and the like in a name are not replacement patterns.
  return index.replace(metadataPlaceholder, () => lines.join('\n    '));
};

/**
 * A share page: the app's `index.html` with the tags `lookup` finds against the page's origin
 * (`requestOrigin`: the one the visitor reached; no lookup for a route below a link, which is the
 * app as it is). `WEB_INDEX` is the build's `index.html`: beside the bundle deployed (relative to
 * the task root, infra/cdk/api-function.ts), in the build locally (absolute); without one, 404.
 * Never a 5xx for a page: if the link cannot be read, the app comes without tags, as Immich's.
 */
export const sharePageHtml = async (
  requestOrigin: string,
  lookup: ((origin: string) => Promise<OpenGraphTags | null>) | undefined,
): Promise<string> => {
  const webIndexFile = webIndex();
  const indexPath = webIndexFile && resolve(lambdaTaskRoot() ?? '.', webIndexFile);
  const index = indexPath ? await readFile(indexPath, 'utf8').catch(() => undefined) : undefined;
  if (index === undefined) throw new NotFound('No web app is served here');
  let tags: OpenGraphTags | null = null;
  if (lookup) {
    try {
      tags = await lookup(await pageOrigin(requestOrigin));
    } catch (error) {
      log.warn('Share page without tags', { error: String(error) });
    }
  }
  return renderSharePage(index, tags);
};
