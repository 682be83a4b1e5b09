/** Access to timelines, whole libraries read by time (Immich's timeline.read and archive.read). */
import { Invalid } from '../core/errors.ts';
import type { Auth } from '../model/user.ts';
import { isPartnerOf } from './partner-access.ts';
import { noAccess, owns, Permission } from './permission.ts';

/**
 * Whether the caller reads the archive and trash of `ownerId`'s library (Immich's archive.read):
 * only their own; a partner's stay theirs (docs/immich-compatibility.md, "Partners").
 */
export const readsArchiveOf = (auth: Auth, ownerId: string): boolean => owns(auth, ownerId);

/**
 * A timeline the caller may read (Immich's timeline.read): their own, or a partner's who shares
 * with them. Archived assets of someone else's timeline stay theirs (archive.read).
 */
export const requireTimeline = async (auth: Auth, userId: string, withArchived = false): Promise<void> => {
  if (auth.sharedLink) throw noAccess(Permission.TimelineRead);
  if (owns(auth, userId)) return;
  if (!(await isPartnerOf(auth, userId))) throw noAccess(Permission.TimelineRead);
  if (withArchived) throw noAccess(Permission.ArchiveRead);
};

/** The locked folder's timeline is the caller's own only (Immich's answer, after timeline.read). */
export const requireOwnLockedTimeline = (auth: Auth, userId: string): void => {
  if (!owns(auth, userId)) throw new Invalid("You may not access another user's locked timeline");
};
