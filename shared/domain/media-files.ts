/**
 * Where the media function keeps what it makes of an asset, beside `upload/` (the originals) under
 * `thumbs/`, so the bucket's object-created events for `upload/` reach it and its own writes do not.
 * Apart from the media service so that the functions that delete these files carry no codecs.
 */
import type { AssetRecord } from '../model/asset.ts';

/** `thumbs/<owner>/<ab>/<cd>/<id>`: what every file made of an asset's key begins with. */
const thumbsBase = (asset: Pick<AssetRecord, 'id' | 'ownerId'>): string =>
  `thumbs/${asset.ownerId}/${asset.id.slice(0, 2)}/${asset.id.slice(2, 4)}/${asset.id}`;

/** An asset's previews: `thumbs/<owner>/<ab>/<cd>/<id>-preview.jpeg` and `…-thumbnail.webp`. */
export const previewKeys = (asset: Pick<AssetRecord, 'id' | 'ownerId'>): { preview: string; thumbnail: string } => {
  const base = thumbsBase(asset);
  return { preview: `${base}-preview.jpeg`, thumbnail: `${base}-thumbnail.webp` };
};

/** Where an edited asset's files are kept: beside its previews, `…-edited-fullsize.jpeg`, `…-edited-preview.jpeg`, `…-edited-thumbnail.webp`. */
export const editedKeys = (asset: Pick<AssetRecord, 'id' | 'ownerId'>): { fullsize: string; preview: string; thumbnail: string } => {
  const base = thumbsBase(asset);
  return { fullsize: `${base}-edited-fullsize.jpeg`, preview: `${base}-edited-preview.jpeg`, thumbnail: `${base}-edited-thumbnail.webp` };
};

/** A video's encoded version (docs/media.md, "Transcoding"): `thumbs/<owner>/<ab>/<cd>/<id>-encoded.mp4`, beside its previews. */
export const encodedVideoKey = (asset: Pick<AssetRecord, 'id' | 'ownerId'>): string => `${thumbsBase(asset)}-encoded.mp4`;
