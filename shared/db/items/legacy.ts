/**
 * Items written in an earlier shape, read as the current one (docs/data-model.md, "Earlier
 * shapes"): the codecs of assets and of the items that copy an asset's status upgrade them on
 * read, so no migration is needed. A write always stores the current shape.
 */
import { type AssetVisibility, durationOfText } from '../../model/asset.ts';

type Item = Record<string, unknown>;

/** Before Immich v3's `visibility`, two flags: `isVisible: false` (a live photo's video part) and `isArchived`. */
export const legacyVisibility = (item: Item): AssetVisibility =>
  item.isVisible === false ? 'hidden' : item.isArchived === true ? 'archive' : 'timeline';

/** An item copying an asset's status (a face, an album entry), or the asset itself, with `visibility`. */
export const upgradeStatus = (item: Item): Item => (item.visibility === undefined ? { ...item, visibility: legacyVisibility(item) } : item);

/** An asset item with `visibility` and a duration in milliseconds. */
export const upgradeAsset = (item: Item): Item => {
  const upgraded = upgradeStatus(item);
  // Before durations in milliseconds: Immich v1.100's text.
  return typeof upgraded.duration === 'string' ? { ...upgraded, duration: durationOfText(upgraded.duration) } : upgraded;
};
