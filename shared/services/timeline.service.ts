import { requireAlbum } from '../access/album-access.ts';
import { requireElevation } from '../access/elevation.ts';
import { Permission } from '../access/permission.ts';
import { requireVisitorAlbum } from '../access/shared-link-access.ts';
import { requireTag } from '../access/tag-access.ts';
import { requireOwnLockedTimeline, requireTimeline } from '../access/timeline-access.ts';
import { Invalid } from '../core/errors.ts';
import * as albumRepo from '../db/album.repository.ts';
import * as assetRepo from '../db/asset.repository.ts';
import * as personRepo from '../db/person.repository.ts';
import * as tagRepo from '../db/tag.repository.ts';
import * as timelineRepo from '../db/timeline.repository.ts';
import { type BucketCount, type BucketFilter, bucketList, bucketsFrom, matchesFilter, periodOf } from '../domain/time-buckets.ts';
import { type AssetRecord, type AssetStatus, hiddenInStack, isListed } from '../model/asset.ts';
import type { SharedLinkRecord } from '../model/shared-link.ts';
import { type BucketAssets, type BucketSize, localPeriodRange, periodOfAsset } from '../model/time-bucket.ts';
import type { Auth } from '../model/user.ts';
import { timelinePartners } from './partner.service.ts';

/** GET /asset/time-buckets (`TimeBucketDto`), and GET /asset/time-bucket with `timeBucket`. */
export interface TimeBucketQuery extends BucketFilter {
  size: BucketSize;
  userId?: string | undefined;
  albumId?: string | undefined;
  personId?: string | undefined;
  /** v3: the caller's assets with this tag or one below it. */
  tagId?: string | undefined;
  withStacked?: boolean | undefined;
  withPartners?: boolean | undefined;
  order?: 'asc' | 'desc' | undefined;
  /**
   * Whether the request asks for the archive, as the checks of a partner's timeline and of
   * `withPartners` read it: v1.100's unless `isArchived` is false (absent, it reads both), v3's only
   * by naming it (`visibility: archive`). The filter cannot say this: absent, both generations read
   * the timeline and the archive, but only v1.100 counts that as asking for the archive. Each
   * generation's DTO reads it in.
   */
  archiveAsked: boolean;
  /** v3's `visibility` was given (not v1.100's `isArchived` read into it): the withPartners refusal names the locked folder too. */
  visibilityNamed?: boolean | undefined;
}

/** Whose timelines, or which album's entries, a request reads: Immich's `timeBucketChecks`. */
type Source =
  | { kind: 'album'; albumId: string; ownerId: string; link?: SharedLinkRecord }
  | { kind: 'tag'; tagId: string; auth: Auth }
  | { kind: 'timeline'; ownerIds: string[] };

const sourceOf = async (auth: Auth, dto: TimeBucketQuery): Promise<Source> => {
  // The locked folder: only in a session unlocked with the PIN code, and only the caller's own.
  const locked = dto.visibility === 'locked';
  if (locked) requireElevation(auth);
  if (dto.withPartners) {
    // Immich refuses these combinations before anything else is read.
    const requestedFavorite = dto.isFavorite === true || dto.isFavorite === false;
    if (locked || dto.archiveAsked || requestedFavorite || dto.isTrashed === true) {
      throw new Invalid(
        dto.visibilityNamed
          ? 'withPartners is only supported for non-archived, non-trashed, non-favorited, non-locked assets'
          : 'withPartners is only supported for non-archived, non-trashed, non-favorited assets',
      );
    }
  }
  if (dto.albumId) {
    if (auth.sharedLink) {
      const link = await requireVisitorAlbum(auth, dto.albumId);
      return { kind: 'album', albumId: dto.albumId, ownerId: link.userId, link };
    }
    const album = await requireAlbum(auth, Permission.AlbumRead, dto.albumId);
    return { kind: 'album', albumId: album.id, ownerId: album.ownerId };
  }
  if (dto.tagId) {
    // A tag is its owner's, and so are the assets its timeline shows (Immich's tag.read, then the caller's assets).
    const tag = await requireTag(auth, Permission.TagRead, dto.tagId);
    return { kind: 'tag', tagId: tag.id, auth };
  }
  // A timeline: the caller's own or a partner's (timeline.read), with the partners who put theirs in it.
  const userId = dto.userId ?? auth.user.id;
  await requireTimeline(auth, userId, dto.archiveAsked);
  if (locked) requireOwnLockedTimeline(auth, userId);
  const partners = dto.withPartners ? await timelinePartners(auth) : [];
  return { kind: 'timeline', ownerIds: [...new Set([userId, ...partners])] };
};

/** Immich's filters on the status an album entry or a face copies from its asset (favourites need the asset). */
const statusMatches = (status: AssetStatus, dto: TimeBucketQuery): boolean =>
  (isListed(status.visibility) || (dto.visibility === 'locked' && status.visibility === 'locked')) &&
  (dto.visibility === undefined || status.visibility === dto.visibility) &&
  (status.deletedAt !== null) === (dto.isTrashed ?? false);

const assetMatches = (asset: AssetRecord, dto: TimeBucketQuery): boolean =>
  statusMatches(asset, dto) &&
  (dto.isFavorite === undefined || asset.isFavorite === dto.isFavorite) &&
  // `withStacked`: a stack shows as its primary asset (Immich's `stack.primaryAssetId = asset.id`).
  !(dto.withStacked && hiddenInStack(asset));

/**
 * The assets of an album or a person that pass the filters, as their status copies say: one
 * Query of the album's entries or the person's faces (never the library); the callers read the
 * assets themselves only when favourites are filtered or a bucket's assets are asked for.
 */
const entriesOf = async (source: Source, dto: TimeBucketQuery, period?: string): Promise<{ assetId: string; localDateTime: string }[]> => {
  let entries: { assetId: string; status: AssetStatus }[];
  if (source.kind === 'album') {
    entries = (await albumRepo.listMembers(source.albumId)).map((member) => ({ assetId: member.assetId, status: member }));
  } else if (source.kind === 'tag') {
    // A tag's entries copy nothing of their assets: the assets themselves (a tag holds hundreds, not the library).
    const assets = await assetRepo.getMany([...(await tagRepo.assetIdsTagged(source.auth.user.id, source.tagId))]);
    entries = assets.filter((asset) => asset.ownerId === source.auth.user.id).map((asset) => ({ assetId: asset.id, status: asset }));
  } else {
    // Faces of a person of the timeline's owner (another's person has none of their assets: nothing).
    const owner = source.ownerIds[0];
    const person = dto.personId && owner ? await personRepo.get(owner, dto.personId) : undefined;
    if (!person) return [];
    const seen = new Set<string>();
    entries = (await personRepo.listFaces(person.id)).flatMap((face) => {
      if (seen.has(face.assetId)) return [];
      seen.add(face.assetId);
      return [{ assetId: face.assetId, status: face }];
    });
  }
  return entries
    .map((entry) => ({
      assetId: entry.assetId,
      localDateTime: entry.status.localDateTime ?? entry.status.fileCreatedAt,
      status: entry.status,
    }))
    .filter(
      (entry) => statusMatches(entry.status, dto) && (period === undefined || periodOfAsset(entry.localDateTime, dto.size) === period),
    );
};

/** Reads the assets of entries and keeps those that still pass every filter. */
const assetsOf = async (ids: readonly string[], dto: TimeBucketQuery): Promise<AssetRecord[]> =>
  (await assetRepo.getMany(ids)).filter((asset) => assetMatches(asset, dto));

/**
 * GET /asset/time-buckets: how many assets each month (or day) holds, newest first unless
 * `order=asc`. The caller's timeline is one Query of its counters, however large the library;
 * an album's or a person's is one Query of its entries.
 */
export const getTimeBuckets = async (auth: Auth, dto: TimeBucketQuery): Promise<BucketCount[]> => {
  const source = await sourceOf(auth, dto);
  const order = dto.order ?? 'desc';
  if (source.kind === 'timeline' && !dto.personId) {
    const read = await Promise.all(source.ownerIds.map((ownerId) => timelineRepo.listCountersWithStacks(ownerId)));
    const hidden = dto.withStacked ? read.flatMap((owner) => owner.stackHidden) : [];
    return bucketsFrom(
      read.flatMap((owner) => owner.counters),
      dto.size,
      dto,
      order,
      hidden,
    );
  }
  let entries = await entriesOf(source, dto);
  if (dto.isFavorite !== undefined) {
    const kept = new Set(
      (
        await assetsOf(
          entries.map((entry) => entry.assetId),
          { ...dto, withStacked: false },
        )
      ).map((asset) => asset.id),
    );
    entries = entries.filter((entry) => kept.has(entry.assetId));
  }
  const totals = new Map<string, number>();
  for (const entry of entries) {
    const period = periodOfAsset(entry.localDateTime, dto.size);
    totals.set(period, (totals.get(period) ?? 0) + 1);
  }
  return bucketList(totals, order);
};

/**
 * GET /asset/time-bucket: the assets of one bucket, in Immich's order (time taken, newest first
 * unless `order=asc`). The caller's timeline reads the key range of the bucket's instants;
 * an album or a person reads its entries, then only the bucket's assets.
 */
export const getTimeBucket = async (auth: Auth, dto: TimeBucketQuery & { timeBucket: string }): Promise<BucketAssets> => {
  const source = await sourceOf(auth, dto);
  const period = periodOf(dto.timeBucket, dto.size);
  if (period === undefined) throw new Invalid('timeBucket must be a date string');
  if (period === null) return { assets: [], sanitized: false };
  let assets: AssetRecord[];
  if (source.kind === 'timeline' && !dto.personId) {
    const { from, to } = localPeriodRange(period, dto.size);
    const owned = await Promise.all(source.ownerIds.map((ownerId) => assetRepo.assetsTakenBetween(ownerId, from, to)));
    assets = owned.flat().filter((asset) => assetMatches(asset, dto) && periodOfAsset(asset.localDateTime, dto.size) === period);
  } else {
    // Stacks fold only a library's timeline (whose counters count them so): an album's, a
    // person's or a tag's list shows every member, as its count does.
    const unstacked = { ...dto, withStacked: false };
    const entries = await entriesOf(source, unstacked, period);
    assets = await assetsOf(
      entries.map((entry) => entry.assetId),
      unstacked,
    );
  }
  const direction = dto.order === 'asc' ? 1 : -1;
  assets.sort((a, b) => direction * (a.fileCreatedAt.localeCompare(b.fileCreatedAt) || a.id.localeCompare(b.id)));
  // A visitor's link was read by sourceOf (a visitor reads only its album): without metadata unless it shows it.
  return { assets, sanitized: auth.sharedLink !== undefined && !(source.kind === 'album' && source.link?.showExif) };
};

/** The caller's visible assets counted by type. */
export interface AssetCounts {
  images: number;
  videos: number;
  total: number;
}

/**
 * GET /asset/statistics and v3's /assets/statistics: the caller's assets in the timeline and the
 * archive by type, from the timeline counters (one Query); the locked folder's with v3's
 * `visibility=locked`, in an unlocked session. Hidden assets are never counted there (v3's
 * `visibility=hidden` asks for none of them).
 */
export const getAssetStatistics = (auth: Auth, filter: BucketFilter): Promise<AssetCounts> => {
  if (filter.visibility === 'locked') requireElevation(auth);
  return countAssets(auth.user.id, filter);
};

/** GET /admin/users/:id/statistics (v3, admin): a user's assets, counted as their own statistics count them. */
export const countAssets = async (ownerId: string, filter: BucketFilter): Promise<AssetCounts> => {
  const stats = { images: 0, videos: 0, total: 0 };
  for (const counter of await timelineRepo.listCounters(ownerId)) {
    if (counter.size !== 'MONTH' || !matchesFilter(counter.state, filter)) continue;
    if (counter.state.type === 'IMAGE') stats.images += counter.count;
    if (counter.state.type === 'VIDEO') stats.videos += counter.count;
    stats.total += counter.count;
  }
  return stats;
};

/**
 * GET /asset/random?count=: up to `count` of the caller's visible, untrashed assets, drawn at
 * random without repeats. Months are drawn in proportion to their counters (one Query), and
 * only the drawn months are read (as timeline key ranges), never the library.
 */
export const getRandom = async (auth: Auth, count: number): Promise<AssetRecord[]> => {
  const ownerId = auth.user.id;
  const remaining = new Map<string, number>();
  for (const counter of await timelineRepo.listCounters(ownerId)) {
    if (counter.size !== 'MONTH' || counter.state.isTrashed || counter.state.isLocked) continue;
    remaining.set(counter.period, (remaining.get(counter.period) ?? 0) + counter.count);
  }
  // How many to take from each month: draws weighted by what each month has left.
  const picks = new Map<string, number>();
  let left = [...remaining.values()].reduce((sum, n) => sum + n, 0);
  for (let drawn = 0; drawn < count && left > 0; drawn++) {
    let target = Math.random() * left;
    for (const [month, n] of remaining) {
      if (target < n) {
        picks.set(month, (picks.get(month) ?? 0) + 1);
        remaining.set(month, n - 1);
        left--;
        break;
      }
      target -= n;
    }
  }
  const chosen = await Promise.all(
    [...picks].map(async ([month, k]) => {
      const { from, to } = localPeriodRange(month, 'MONTH');
      const assets = (await assetRepo.assetsTakenBetween(ownerId, from, to)).filter(
        (asset) => isListed(asset.visibility) && asset.deletedAt === null && periodOfAsset(asset.localDateTime, 'MONTH') === month,
      );
      // A partial Fisher–Yates shuffle: k distinct assets of the month.
      for (let i = 0; i < Math.min(k, assets.length); i++) {
        const j = i + Math.floor(Math.random() * (assets.length - i));
        [assets[i], assets[j]] = [assets[j] as AssetRecord, assets[i] as AssetRecord];
      }
      return assets.slice(0, k);
    }),
  );
  return chosen.flat();
};
