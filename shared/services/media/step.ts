/**
 * One step of an upload's processing (docs/media.md): the media function runs the steps of
 * shared/services/media/pipeline.ts in their order for each asset. A step is idempotent (run again,
 * it makes the same files and records the same values) and says when the settings (or the asset as
 * it is) leave it nothing to do.
 */
import type { AssetRecord, FaceRecord } from '../../model/asset.ts';
import type { SystemConfig } from '../../model/config.ts';
import type { OriginalsStore } from '../../storage/originals.ts';

export type MediaOutcome = 'made' | 'not-yet' | 'gone' | 'unsupported';

/** An image's bytes and size: the asset's (unedited) preview. */
export interface Preview {
  bytes: Buffer;
  width: number;
  height: number;
}

/** A person's thumbnail made (or made again), its feature asset's preview made first when it has none. */
export type PersonThumbnailMaker = (ownerId: string, personId: string) => Promise<MediaOutcome>;

/** What the steps of one asset's run share (an upload's, or a job's): read once, and what the earlier steps made. */
export interface UploadContext {
  asset: AssetRecord;
  /** The asset's faces as the run began (none read for a job whose steps need none). */
  faces: readonly FaceRecord[];
  settings: SystemConfig;
  store: OriginalsStore;
  /** Set by the previews step: the preview it stored, and the original's size as decoded. */
  preview?: Preview;
  original?: { width: number; height: number };
  personThumbnail: PersonThumbnailMaker;
  /** The upload's steps run again for this asset (read anew): what a job falls back on when the asset has no preview. */
  upload: () => Promise<MediaOutcome>;
}

export interface MediaStep {
  /** The step's name in logs and in docs/media.md. */
  name: string;
  /** True when there is nothing to do: the step is switched off, or the asset needs none of it. */
  skip?: (settings: SystemConfig, context: UploadContext) => boolean;
  /** Does the step; an outcome ends the run with it (the asset is gone, or no previews can be made). */
  run: (context: UploadContext) => Promise<MediaOutcome | undefined>;
}
