import { handler as generateMedia } from '#functions/media/generate-media.ts';

/** What the originals bucket sends the media function for an object (keys URL-encoded), answered with its outcomes. */
export const objectCreated = (key: string) =>
  generateMedia({ Records: [{ s3: { object: { key: encodeURIComponent(key).replace(/%2F/g, '/') } } }] });
