/** A file to answer with, and how: its key in the store, its type, caching and (downloads) its name. */
export interface ServedFile {
  key: string;
  contentType: string;
  cacheControl: string;
  /** For `Content-Disposition: attachment`. */
  downloadName?: string;
  /** For `Content-Disposition: inline` (v3's file routes name what they send). */
  inlineName?: string;
}

/** `Content-Disposition` of a file shown in place, as Immich v3's sendFile writes it. */
export const inline = (name: string): string => `inline; filename*=UTF-8''${encodeURIComponent(name)}`;

/**
 * How a file reaches the client: a short-lived URL to fetch it from (S3), or its bytes (the local
 * folder); or, for a request of its headers alone, that it is there.
 */
export type Delivery = { url: string } | { bytes: Buffer } | { found: true };

/**
 * `Content-Disposition` for a download, as Express's `res.attachment` writes it: an ASCII
 * `filename` (other characters as `?`, quotes and backslashes escaped) and, when the name is not
 * plain ASCII, the exact name in RFC 5987's `filename*=UTF-8''…`.
 */
export const attachment = (name: string): string => {
  const ascii = name.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, '\\$&');
  const exact = /^[\x20-\x7e]*$/.test(name)
    ? ''
    : `; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
  return `attachment; filename="${ascii}"${exact}`;
};
