import * as v from 'valibot';
import { id, instant, nullable } from './fields.ts';
import type { UserRecord } from './user.ts';

/**
 * A like or a comment on a shared album, or on one of its assets (Immich's `activity` row):
 * `isLiked` for a like, else `comment`. The album's owner is copied on it, so who may delete it
 * (its author or the album's owner) is known from the item alone.
 */
export const ActivityRecordSchema = v.object({
  id: id(),
  albumId: id(),
  albumOwnerId: id(),
  assetId: nullable(id()),
  userId: id(),
  isLiked: v.boolean(),
  comment: nullable(v.string()),
  createdAt: instant(),
});
export type ActivityRecord = v.InferOutput<typeof ActivityRecordSchema>;

/** An activity with its author, as the apps show it. */
export interface ActivityView {
  activity: ActivityRecord;
  user: UserRecord;
}

/** GET /activity: an album's, narrowed to one asset (or to the album's own with `level: album`), a user, a kind. */
export interface ActivityFilter {
  albumId: string;
  assetId?: string | undefined;
  level?: 'album' | 'asset' | undefined;
  type?: 'comment' | 'like' | undefined;
  userId?: string | undefined;
}

export interface NewActivity {
  albumId: string;
  assetId?: string | undefined;
  type: 'comment' | 'like';
  comment?: string | undefined;
}
