/** The originals the bucket's object-created events name (the media function's uploads). */
import { originalsStore } from '../../storage/originals.ts';

/** An original's key names its asset: `upload/<owner>/<ab>/<cd>/<assetId>.<ext>` (previews and sidecars are not originals). */
export const assetIdOfOriginalKey = (key: string): string | undefined =>
  /^upload\/[0-9a-f-]{36}\/[0-9a-f]{2}\/[0-9a-f-]{2}\/([0-9a-f-]{36})(\.[a-z0-9]+)?$/.exec(key)?.[1];

/** Whether an original is (still) stored: an object event for a file since removed has nothing to do. */
export const originalExists = async (key: string): Promise<boolean> => (await originalsStore()).exists(key);
