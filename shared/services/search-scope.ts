/**
 * Whom a search reads, and with which filters (the metadata search and smart search): the caller's
 * library and their timeline partners', v3's albumIds and tagIds as the assets they have in common,
 * and 3.2's filter tree (docs/search.md).
 */
import { requireAlbums } from '../access/album-access.ts';
import { requireElevation } from '../access/elevation.ts';
import { Permission } from '../access/permission.ts';
import { readsArchiveOf } from '../access/timeline-access.ts';
import { inBatches } from '../core/concurrency.ts';
import * as albumRepo from '../db/album.repository.ts';
import * as tagRepo from '../db/tag.repository.ts';
import type { SearchFilters } from '../model/search.ts';
import { defaultSearchVisibilities } from '../model/search.ts';
import type { Auth } from '../model/user.ts';
import { timelinePartners } from './partner.service.ts';
import { withFilterTree } from './search-filter.service.ts';

/**
 * Whom a search over the caller's and their timeline partners' libraries reads, and with which
 * filters each (POST /search/metadata above, and smart search): the locked folder only in a session
 * unlocked with the PIN code, and only the caller's own (as Immich); only the archive or the locked
 * folder (or nothing at all), or the trash: the caller's alone; a partner's archived and trashed
 * assets stay theirs. 3.2's filter tree has its sets read and its test made (docs/search.md, "The
 * filter tree").
 */
export const searchScope = async (auth: Auth, request: SearchFilters) => {
  const visibilities = request.visibilities ?? defaultSearchVisibilities;
  if (visibilities.includes('locked')) requireElevation(auth);
  const among = await withAmongAssets(auth, request);
  const ownOnly =
    visibilities.every((visibility) => visibility === 'archive' || visibility === 'locked') ||
    Boolean(among.trashedAfter || among.trashedBefore);
  const partners = ownOnly ? [] : await timelinePartners(auth);
  const owners = [auth.user.id, ...partners];
  const filters = await withFilterTree(auth, owners, among);
  const partnerFilters: SearchFilters = {
    ...filters,
    visibilities: visibilities.filter((visibility) => visibility !== 'archive' && visibility !== 'locked'),
    withDeleted: false,
  };
  return { owners, filters, filtersOf: (owner: string): SearchFilters => (readsArchiveOf(auth, owner) ? filters : partnerFilters) };
};

/** v3's albumIds and tagIds as the assets they have in common: none asked, no narrowing. */
const withAmongAssets = async (auth: Auth, request: SearchFilters): Promise<SearchFilters> => {
  const sets: Set<string>[] = [];
  if (request.albumIds && request.albumIds.length > 0) sets.push(await assetsInAll(auth, request.albumIds));
  // Immich's tag filter: every one of the tags, each through itself or a tag below it.
  for (const tagId of new Set(request.tagIds ?? [])) sets.push(await tagRepo.assetIdsTagged(auth.user.id, tagId));
  const [first, ...rest] = sets;
  return first ? { ...request, amongAssets: new Set([...first].filter((id) => rest.every((set) => set.has(id)))) } : request;
};

/** v3's albumIds: the assets in every one of these albums the caller may read (Immich's `inAlbums`). */
const assetsInAll = async (auth: Auth, albumIds: readonly string[]): Promise<Set<string>> => {
  // Checked 100 a read (docs/api.md, "Limits": at most `limits.bulkTargets` albums), then each
  // album's entries listed, a few at a time.
  const albums = await requireAlbums(auth, Permission.AlbumRead, albumIds);
  const members: Set<string>[] = [];
  await inBatches(albums, 4, async (album) => {
    members.push(new Set((await albumRepo.listMembers(album.id)).map((member) => member.assetId)));
  });
  const [first = new Set<string>(), ...rest] = members;
  return new Set([...first].filter((assetId) => rest.every((set) => set.has(assetId))));
};
