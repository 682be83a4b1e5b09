/**
 * Immich v3.2's folders view (`@immich/sdk` 3.2.2: getUniqueOriginalPaths, getAssetsByOriginalPath).
 * Immich reads `path` unvalidated (a request without it fails inside); here it is required.
 */
import { limits } from '../../model/limits.ts';
import { object, text } from './common.ts';

export const FolderQuery = object({ path: text(limits.keyValue) });
