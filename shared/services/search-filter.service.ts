/**
 * 3.2's filter tree in a search (docs/search.md, "The filter tree"): the albums, people and tags
 * it names checked as the flat filters' are (each the caller may read: 400 otherwise, as Immich's
 * access check), the sets its conditions need read (albums' and tags' assets, each OCR text's
 * assets in every searched library), then compiled into a test every candidate passes
 * (shared/domain/search-filter.ts) and the assets the candidates can be narrowed to.
 */
import { requireAlbums } from '../access/album-access.ts';
import { Permission } from '../access/permission.ts';
import { requirePeople } from '../access/person-access.ts';
import { requireTags } from '../access/tag-access.ts';
import { inBatches } from '../core/concurrency.ts';
import * as albumRepo from '../db/album.repository.ts';
import * as tagRepo from '../db/tag.repository.ts';
import { compileTree, type TreeSets, treeCandidates, treeNames } from '../domain/search-filter.ts';
import type { SearchFilters } from '../model/search.ts';
import { branchesOf, type FilterTree, idsNamed } from '../model/search-filter.ts';
import type { Auth } from '../model/user.ts';
import { assetIdsWithText } from './ocr.service.ts';

const union = (sets: readonly Iterable<string>[]): Set<string> => new Set(sets.flatMap((set) => [...set]));

/** Reads what the tree's conditions are tested against, after checking the caller may read each album, person and tag it names. */
const readSets = async (auth: Auth, owners: readonly string[], tree: FilterTree): Promise<TreeSets> => {
  const albumIds = idsNamed(tree, 'albumIds');
  const personIds = idsNamed(tree, 'personIds');
  const tagIds = idsNamed(tree, 'tagIds');
  const albums = albumIds.length > 0 ? await requireAlbums(auth, Permission.AlbumRead, albumIds) : [];
  if (personIds.length > 0) await requirePeople(auth, Permission.PersonRead, personIds);
  if (tagIds.length > 0) await requireTags(auth, Permission.TagRead, tagIds);

  const albumSets = new Map<string, Set<string>>();
  await inBatches(albums, 4, async (album) => {
    albumSets.set(album.id, new Set((await albumRepo.listMembers(album.id)).map((member) => member.assetId)));
  });
  const tagSets = new Map<string, Set<string>>();
  await inBatches(tagIds, 4, async (tagId) => {
    tagSets.set(tagId, await tagRepo.assetIdsTagged(auth.user.id, tagId));
  });
  // Each text in every library searched (the postings are per owner).
  const texts = [...new Set(branchesOf(tree).flatMap((branch) => (branch.ocr ? [branch.ocr.matches] : [])))];
  const ocrSets = new Map<string, Set<string>>();
  await inBatches(texts, 4, async (text) => {
    ocrSets.set(text, union(await Promise.all(owners.map((owner) => assetIdsWithText(owner, text)))));
  });
  // `hasTags`: the assets of every tag of every library searched (one Query a tag).
  let tagged = new Set<string>();
  if (treeNames(tree, 'hasTags')) {
    const tags = (await Promise.all(owners.map((owner) => tagRepo.list(owner)))).flat();
    const lists: string[][] = [];
    await inBatches(tags, 8, async (tag) => {
      lists.push(await tagRepo.listAssetIds(tag.id));
    });
    tagged = union(lists);
  }
  return { albums: albumSets, tags: tagSets, ocr: ocrSets, tagged };
};

/**
 * The request with its tree resolved: `treeMatch` set, `amongAssets` narrowed to the tree's
 * candidates when it has a set condition at the top (or in every branch), and the flat fields an
 * index is chosen by (a person, a place or camera, a taken window) copied from the top level's
 * equal conditions when the request has none, so the search reads the right index; the tree's
 * own test still decides.
 */
export const withFilterTree = async (auth: Auth, owners: readonly string[], filters: SearchFilters): Promise<SearchFilters> => {
  const tree = filters.tree;
  if (!tree) return filters;
  const sets = await readSets(auth, owners, tree);
  const resolved: SearchFilters = { ...filters, treeMatch: compileTree(tree, sets) };
  const candidates = treeCandidates(tree, sets);
  if (candidates) {
    const among = filters.amongAssets;
    resolved.amongAssets = among ? new Set([...candidates].filter((id) => among.has(id))) : candidates;
  }
  const person = tree.personIds?.all?.[0] ?? (tree.personIds?.any?.length === 1 ? tree.personIds.any[0] : undefined);
  if (person && !filters.personIds?.length) resolved.personIds = [person];
  for (const key of ['city', 'lensModel', 'model', 'state', 'make', 'country'] as const) {
    const value = tree[key]?.eq;
    if (typeof value === 'string' && value !== '' && !filters[key]) resolved[key] = value;
  }
  const taken = tree.takenAt;
  if (taken && !filters.takenAfter && !filters.takenBefore) {
    const after = taken.eq ?? taken.gte ?? taken.gt;
    const before = taken.eq ?? taken.lte ?? taken.lt;
    if (after) resolved.takenAfter = after;
    if (before) resolved.takenBefore = before;
  }
  return resolved;
};
