import { readsArchiveOf, requireTimeline } from '../../access/timeline-access.ts';
import * as assetRepo from '../../db/asset.repository.ts';
import type { AuditEntityType } from '../../db/audit.repository.ts';
import * as auditRepo from '../../db/audit.repository.ts';
import { type AssetRecord, isListed } from '../../model/asset.ts';
import type { AssetListQuery } from '../../model/sync.ts';
import type { Auth } from '../../model/user.ts';

/** Immich's AUDIT_LOG_MAX_DURATION: a client that last synced longer ago than this needs a full sync. */
const auditWindowMs = 100 * 86_400_000;

/**
 * The by-update index lags its table by up to a second: a delta sync reads from this much before
 * the `updatedAfter` asked, so a change the previous sync could not see yet is never lost (the
 * app upserts what it gets, so an asset sent twice costs nothing).
 */
const indexLagMs = 5_000;

/** Whose assets: the caller's own or a partner's who shares with them (Immich's timeline.read). */
const ownerOf = async (auth: Auth, userId: string | null | undefined): Promise<string> => {
  const ownerId = userId ?? auth.user.id;
  await requireTimeline(auth, ownerId);
  return ownerId;
};

const newestTakenFirst = (a: AssetRecord, b: AssetRecord): number =>
  b.fileCreatedAt.localeCompare(a.fileCreatedAt) || b.id.localeCompare(a.id);

/**
 * GET /asset (`getAllAssets`): the owner's visible assets, trashed ones included, newest taken
 * first, with `skip` / `take`, as Immich's v1 asset list the mobile app syncs from.
 * - `updatedAfter` (the delta sync): one Query of the owner's by-update index from that instant;
 *   it reads what changed, not the library.
 * - otherwise (the full sync, in chunks of 10,000 with `updatedBefore` = when it started): the
 *   timeline, newest first, until `skip + take` assets passed the filters.
 */
export const getAllAssets = async (auth: Auth, dto: AssetListQuery): Promise<AssetRecord[]> => {
  const ownerId = await ownerOf(auth, dto.userId);
  // A partner's archive stays theirs (docs/api.md, "Sharing"): their archived assets are left out.
  const withArchive = readsArchiveOf(auth, ownerId);
  const passes = (asset: AssetRecord): boolean =>
    isListed(asset.visibility) &&
    (withArchive || asset.visibility !== 'archive') &&
    (dto.isFavorite === undefined || dto.isFavorite === null || asset.isFavorite === dto.isFavorite) &&
    (dto.visibility === undefined || asset.visibility === dto.visibility) &&
    (!dto.updatedBefore || asset.updatedAt <= dto.updatedBefore);
  const skip = Math.max(0, dto.skip ?? 0);
  const end = dto.take === undefined || dto.take === null ? Number.POSITIVE_INFINITY : skip + Math.max(0, dto.take);
  let selected: AssetRecord[];
  if (dto.updatedAfter) {
    const from = new Date(new Date(dto.updatedAfter).getTime() - indexLagMs).toISOString();
    selected = (await assetRepo.assetsUpdatedBetween(ownerId, from, dto.updatedBefore ?? undefined))
      .filter(passes)
      .sort(newestTakenFirst)
      .slice(skip, end);
  } else {
    selected = [];
    let passed = 0;
    for await (const page of assetRepo.timelinePages(ownerId, { descending: true, pageSize: 1000 })) {
      for (const asset of page) {
        if (!passes(asset)) continue;
        if (passed++ >= skip) selected.push(asset);
        if (passed >= end) break;
      }
      if (passed >= end) break;
    }
  }
  return selected;
};

/** The ids deleted since a moment, and whether that moment is older than the deletions kept. */
export interface AuditDeletes {
  needsFullSync: boolean;
  ids: string[];
}

/**
 * GET /audit/deletes: the ids of the caller's assets (or albums) deleted for good since `after`,
 * from the deletions recorded in the deleting transactions and kept 100 days; `needsFullSync`
 * when `after` is older than that, as Immich answers.
 */
export const getAuditDeletes = async (
  auth: Auth,
  dto: { after: string; entityType: AuditEntityType; userId?: string | null | undefined },
): Promise<AuditDeletes> => {
  const ownerId = await ownerOf(auth, dto.userId);
  const listed = await auditRepo.listDeletedSince(ownerId, dto.entityType, dto.after);
  // An asset recorded as gone when it went into the locked folder, and since back out, is not gone.
  const back =
    dto.entityType === 'ASSET' && listed.length > 0
      ? new Set((await assetRepo.getMany(listed)).filter((asset) => isListed(asset.visibility)).map((asset) => asset.id))
      : new Set<string>();
  return { needsFullSync: Date.now() - new Date(dto.after).getTime() > auditWindowMs, ids: listed.filter((id) => !back.has(id)) };
};
