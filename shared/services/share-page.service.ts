/**
 * The page a shared link opens (`/share/<key>`): Immich's web app (its `index.html`) with Open
 * Graph and Twitter tags naming what the link shows, so a link pasted into a chat or a mail shows
 * a title, a description and a picture (Immich's server-side rendering of share pages;
 * docs/web-app.md, "Share pages"). No tags for a link that needs a password, has expired, or
 * does not exist: the page is then the app as for any other route, and it says why.
 */
import { hashSharedLinkKey } from '../core/crypto.ts';
import { getAlbum, listMembers } from '../db/album.repository.ts';
import { getAssets } from '../db/asset.repository.ts';
import { getSharedLink, getSharedLinkByKeyHash, listSharedLinkAssetIds } from '../db/shared-link.repository.ts';
import { byFileCreatedAt } from '../model/asset.ts';

/** Immich's `OpenGraphTags`. */
export interface OpenGraphTags {
  title: string;
  description: string;
  imageUrl: string;
}

/** Where the app's `index.html` leaves room for the tags (Immich's web/src/app.html). */
export const metadataPlaceholder = '<!-- metadata:tags -->';

/** A link key as Immich makes them (base64url of 50 bytes) or as its older clients send them (hex). */
const linkKeyPattern = /^(?:[A-Za-z0-9_-]{1,128})$/;

/**
 * The tags of a shared link, or null when it shows nothing to a stranger: an unknown or expired
 * key, a deleted owner, a password. Title: the album's name, else "Public Share"; description:
 * the link's, else how many photos and videos it shows; image: the album's thumbnail (else its
 * first photo) or the link's first photo, through the link's own key; else Immich's feature panel.
 */
export const sharePageTags = async (key: string): Promise<OpenGraphTags | null> => {
  if (!linkKeyPattern.test(key)) return null;
  const found = await getSharedLinkByKeyHash(hashSharedLinkKey(key));
  if (!found?.userActive || (found.expiresAt !== null && Date.parse(found.expiresAt) <= Date.now())) return null;
  const link = await getSharedLink(found.userId, found.linkId);
  if (!link || link.passwordHash) return null;

  let title = 'Public Share';
  let assetIds: string[];
  let cover: string | null = null;
  if (link.type === 'ALBUM' && link.albumId) {
    const [album, members] = await Promise.all([getAlbum(link.userId, link.albumId), listMembers(link.albumId)]);
    if (!album) return null;
    title = album.albumName;
    assetIds = members.filter((member) => member.deletedAt === null).map((member) => member.assetId);
    cover = album.albumThumbnailAssetId;
  } else {
    // What the visitor sees first: the link's photos by date taken, the trashed left out.
    const assets = (await getAssets(await listSharedLinkAssetIds(link.id))).filter((asset) => asset.deletedAt === null);
    assetIds = assets.sort(byFileCreatedAt('asc')).map((asset) => asset.id);
  }
  const imageId = cover ?? assetIds[0];
  return {
    title,
    description: link.description || `${assetIds.length} shared photos & videos`,
    imageUrl: imageId ? `/api/asset/thumbnail/${imageId}?key=${encodeURIComponent(key)}` : '/feature-panel.png',
  };
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
