import { Invalid } from '../core/errors.ts';
import type { AssetPageOptions } from '../db/asset.repository.ts';
import * as assetRepo from '../db/asset.repository.ts';
import * as personRepo from '../db/person.repository.ts';
import * as termRepo from '../db/term.repository.ts';
import type { Facet } from '../db/timeline.repository.ts';
import * as timelineRepo from '../db/timeline.repository.ts';
import { checksumHex, matchesSearch, type SearchFilters, searchOrder } from '../domain/search.ts';
import { assetTerms, words } from '../domain/terms.ts';
import {
  type AssetRecord,
  type CityAsset,
  type FaceRecord,
  inTimeline,
  type SearchableExifField,
  type SearchHit,
  type SearchPage,
} from '../model/asset.ts';
import type { PersonRecord } from '../model/person.ts';
import type { SuggestionRequest, TextSearch } from '../model/search.ts';
import type { Auth } from '../model/user.ts';
import { withOcrMatches } from './ocr.service.ts';
import { timelinePartners } from './partner.service.ts';
import { searchScope } from './search-scope.ts';
import { getRandom } from './timeline.service.ts';

type Order = 'asc' | 'desc';

/**
 * A source of candidate assets in the result's order: the most selective condition of the
 * request, read page by page. Every candidate is then checked against every filter.
 */
type Driver = AsyncGenerator<AssetRecord[], void, void>;

// A little over what is wanted, so that the few candidates the other filters drop (trashed,
// archived…) rarely cost a second round trip.
const pageSize = (wanted: number): number => Math.min(Math.max(Math.ceil(wanted * 1.2) + 10, 50), 1000);

/** A person's faces (gsi2, in fileCreatedAt order), their assets read 100 at a time. */
async function* personDriver(personId: string, order: Order, wanted: number): Driver {
  const seen = new Set<string>();
  for await (const page of personRepo.personAssetIdPages(personId, { descending: order === 'desc', pageSize: pageSize(wanted) })) {
    yield await assetRepo.getMany(page.filter((id) => !seen.has(id) && seen.add(id)));
  }
}

async function* pointDriver(lookup: () => Promise<AssetRecord | undefined>): Driver {
  const asset = await lookup();
  yield asset ? [asset] : [];
}

// Rough selectivity of the EXIF filters, most selective first: it picks the index to read.
const exifPreference: readonly SearchableExifField[] = ['city', 'lensModel', 'model', 'state', 'make', 'country'];

const idInPath = /^upload\/[^/]+\/[^/]+\/[^/]+\/([0-9a-f-]{36})\.[a-z0-9]+$/;

/**
 * Picks the driver for a request: a point lookup (id, original path, checksum), else the person
 * with the fewest faces, else the most selective EXIF index, else the owner's timeline. A taken
 * window narrows an index's key range. Returns undefined when nothing can match.
 */
const chooseDriver = async (owner: string, filters: SearchFilters, order: Order, wanted: number): Promise<Driver | undefined> => {
  if (filters.id) {
    const id = filters.id;
    return pointDriver(() => assetRepo.get(id));
  }
  if (filters.originalPath) {
    const id = idInPath.exec(filters.originalPath)?.[1];
    return id ? pointDriver(() => assetRepo.get(id)) : undefined;
  }
  if (filters.checksum) {
    const hex = checksumHex(filters.checksum);
    return pointDriver(() => assetRepo.getByChecksum(owner, hex));
  }
  if (filters.amongAssets) {
    // The albums' or tags' assets: read by key, whatever the library's size.
    const ids = [...filters.amongAssets];
    return (async function* () {
      for (let start = 0; start < ids.length; start += 100) yield await assetRepo.getMany(ids.slice(start, start + 100));
    })();
  }
  if (filters.personIds && filters.personIds.length > 0) {
    const wantedIds = [...new Set(filters.personIds)];
    const people = await personRepo.getMany(owner, wantedIds);
    if (people.length !== wantedIds.length) return undefined;
    const rarest = [...people].sort((a, b) => a.faceCount - b.faceCount)[0];
    return rarest ? personDriver(rarest.id, order, wanted) : undefined;
  }
  const window: AssetPageOptions = {
    descending: order === 'desc',
    pageSize: pageSize(wanted),
    ...(filters.takenAfter ? { takenAfter: filters.takenAfter } : {}),
    ...(filters.takenBefore ? { takenBefore: filters.takenBefore } : {}),
  };
  const exif = exifPreference.find((field) => filters[field]);
  if (exif) return assetRepo.exifPages(exif, owner, filters[exif] ?? '', window);
  return assetRepo.timelinePages(owner, window);
};

/** Loaded faces and people for `withPeople`: the assets' faces by key (their ids are on the asset), then their people. */
const peopleOf = async (owner: string, assets: readonly AssetRecord[]) => {
  const faces = await assetRepo.getFacesOf(assets);
  const people = await personRepo.getMany(owner, [...new Set(assets.flatMap((asset) => asset.personIds))]);
  const byAsset = new Map<string, FaceRecord[]>();
  for (const face of faces) byAsset.set(face.assetId, [...(byAsset.get(face.assetId) ?? []), face]);
  for (const list of byAsset.values()) list.sort((a, b) => a.index - b.index);
  return { byAsset, people: new Map<string, PersonRecord>(people.map((person) => [person.id, person])) };
};

/**
 * Most candidates one request may examine when only unindexed filters apply (e.g. a file-name
 * substring): the results found by then are the answer (docs/data-model.md, "Search").
 */
const maxExamined = 25_000;

/** The deepest result a request may ask for (`page × size`): deeper pages would read the library again and again. */
const maxResultDepth = 10_000;

/** Most candidate assets one text search reads before it answers with what it found. */
export const maxTextCandidates = 5_000;

/** One owner's matches, in result order, up to `wanted` (or what `maxExamined` candidates gave). */
const searchOwner = async (owner: string, request: SearchFilters, order: Order, wanted: number): Promise<AssetRecord[]> => {
  const filters = await withOcrMatches(owner, request);
  const driver = await chooseDriver(owner, filters, order, wanted);
  const found: AssetRecord[] = [];
  let examined = 0;
  if (driver) {
    for await (const batch of driver) {
      examined += batch.length;
      found.push(...batch.filter((asset) => asset.ownerId === owner && matchesSearch(asset, filters)));
      // The assets of a set (albums, tags, OCR text) come in no order: all of them are examined.
      if ((found.length >= wanted && !filters.amongAssets) || examined >= maxExamined) break;
    }
  }
  // Drivers deliver in index order already; sorting again makes point and person drivers exact too.
  return found.sort(searchOrder(order)).slice(0, wanted);
};

/**
 * The metadata search over these owners' libraries: each owner's first `page × size` (+1, to know
 * whether a next page exists) merged in result order, then the page.
 */
const searchOwners = async (
  auth: Auth,
  owners: readonly string[],
  filters: SearchFilters,
  filtersOf: (owner: string) => SearchFilters = () => filters,
): Promise<SearchPage> => {
  const order: Order = filters.order ?? 'desc';
  const size = filters.size ?? 250;
  const page = filters.page ?? 1;
  const wanted = page * size;
  if (wanted > maxResultDepth) throw new Invalid(`page × size must not be greater than ${maxResultDepth}`);
  const found = (await Promise.all(owners.map((owner) => searchOwner(owner, filtersOf(owner), order, wanted + 1))))
    .flat()
    .sort(searchOrder(order));
  const pageItems = found.slice((page - 1) * size, wanted);
  // People are the owner's: loaded for the caller's own assets.
  const loaded = filters.withPeople
    ? await peopleOf(
        auth.user.id,
        pageItems.filter((asset) => asset.ownerId === auth.user.id),
      )
    : undefined;
  const items = pageItems.map(
    (asset): SearchHit => (loaded ? { asset, faces: loaded.byAsset.get(asset.id) ?? [], people: loaded.people } : { asset }),
  );
  return { items, hasNextPage: found.length > wanted };
};

/**
 * GET /assets (searchAssets): Immich's metadata search over the caller's assets. The result is
 * exactly the in-memory filter of the library in (fileCreatedAt, id) order, paged by page/size;
 * the work follows the driver (see chooseDriver and docs/data-model.md).
 */
export const searchAssets = (auth: Auth, filters: SearchFilters): Promise<SearchPage> => searchOwners(auth, [auth.user.id], filters);

/**
 * POST /search/metadata: the same search over the caller's library and those of the partners in
 * their timeline (Immich's getUserIdsToSearch). A partner's archive and trash stay theirs (Immich
 * v1.100 searched them too; docs/immich-compatibility.md): a search of archived or trashed assets
 * reads only the caller's, and any other leaves a partner's archived and trashed ones out.
 */
export const searchMetadata = async (auth: Auth, request: SearchFilters): Promise<SearchPage> => {
  const { owners, filters, filtersOf } = await searchScope(auth, request);
  return searchOwners(auth, owners, filters, filtersOf);
};

// What a random search may say without narrowing the library: v3's default visibility and what to include.
const unnarrowing = new Set(['visibilities', 'size', 'withExif', 'withPeople', 'withStacked']);

/** v3's default visibility: the timeline and the archive. */
const isTimelineAndArchive = (visibilities: readonly string[] | undefined): boolean =>
  visibilities?.length === 2 && visibilities.includes('timeline') && visibilities.includes('archive');

/**
 * POST /search/random (v3): `size` of the caller's matching assets at random. Without a filter
 * they are drawn from the whole library by the timeline counters (as GET /asset/random); with one,
 * from its first 1,000 matches (bounded work, as every search here).
 */
export const searchRandom = async (auth: Auth, filters: SearchFilters, size: number): Promise<AssetRecord[]> => {
  const narrowing = Object.entries(filters).some(([key, value]) => value !== undefined && !unnarrowing.has(key));
  if (!narrowing && isTimelineAndArchive(filters.visibilities)) return getRandom(auth, size);
  const { items } = await searchMetadata(auth, { ...filters, page: 1, size: 1000 });
  const assets = items.map((hit) => hit.asset);
  for (let i = 0; i < Math.min(size, assets.length); i++) {
    const j = i + Math.floor(Math.random() * (assets.length - i));
    [assets[i], assets[j]] = [assets[j] as AssetRecord, assets[i] as AssetRecord];
  }
  return assets.slice(0, size);
};

/**
 * POST /search/large-assets (v3, the web app's Large files): the matches larger than
 * `minFileSize` bytes, largest first, `size` of them, as Immich's. Read as the metadata search
 * reads (the caller's and timeline partners' libraries, a locked folder only unlocked): the
 * largest among the newest `maxResultDepth` matches, bounded work as every search here
 * (docs/immich-compatibility.md, "Search").
 */
export const searchLargeAssets = async (auth: Auth, filters: SearchFilters, minFileSize: number, size: number): Promise<AssetRecord[]> => {
  const { items } = await searchMetadata(auth, { ...filters, page: 1, size: maxResultDepth });
  return items
    .map((hit) => hit.asset)
    .filter((asset) => (asset.exif.fileSizeInByte ?? 0) > minFileSize)
    .sort((a, b) => (b.exif.fileSizeInByte ?? 0) - (a.exif.fileSizeInByte ?? 0) || a.id.localeCompare(b.id))
    .slice(0, size);
};

/**
 * GET /search/suggestions, as Immich v3's `getSearchSuggestions`: the distinct countries, states
 * (of a country), cities (of a country and state), camera makes, models (of a make, a model, a
 * lens) or lenses (of a make and model) of the untrashed assets of the caller and of the partners
 * in their timeline, in order, from the facet counters kept with the timeline counters (one Query
 * an owner); with `includeNull`, a `null` after them (Immich appends it whatever the assets hold:
 * the web app's "Unknown"). Lenses read the camera-and-lens facets, which a library stored before
 * them gets once here (`indexLensFacets`).
 */
export const getSearchSuggestions = async (auth: Auth, dto: SuggestionRequest): Promise<(string | null)[]> => {
  const owners = [auth.user.id, ...(await timelinePartners(auth))];
  const given = (value: string | null | undefined) => (value ? value : undefined);
  const byLens = dto.type === 'camera-lens-model' || (given(dto.lensModel) !== undefined && dto.type.startsWith('camera-'));
  if (byLens) await Promise.all(owners.map((owner) => timelineRepo.indexLensFacets(owner)));
  const facets = (await Promise.all(owners.map((owner) => timelineRepo.listFacets(owner)))).flat();
  const rows = (kind: Facet['kind']) => facets.filter((facet) => facet.kind === kind).map((facet) => facet.values);
  const pick = (kind: Facet['kind'], column: number, where: [number, string | null | undefined][]) =>
    rows(kind)
      .filter((row) => where.every(([index, value]) => given(value) === undefined || row[index] === value))
      .map((row) => row[column]);
  const values =
    dto.type === 'country'
      ? pick('place', 0, [])
      : dto.type === 'state'
        ? pick('place', 1, [[0, dto.country]])
        : dto.type === 'city'
          ? pick('place', 2, [
              [0, dto.country],
              [1, dto.state],
            ])
          : dto.type === 'camera-lens-model'
            ? pick('lens', 2, [
                [0, dto.make],
                [1, dto.model],
              ])
            : dto.type === 'camera-make'
              ? byLens
                ? pick('lens', 0, [
                    [1, dto.model],
                    [2, dto.lensModel],
                  ])
                : pick('camera', 0, [[1, dto.model]])
              : byLens
                ? pick('lens', 1, [
                    [0, dto.make],
                    [2, dto.lensModel],
                  ])
                : pick('camera', 1, [[0, dto.make]]);
  const suggestions: (string | null)[] = [
    ...new Set(values.filter((value): value is string => typeof value === 'string' && value !== '')),
  ].sort();
  if (dto.includeNull) suggestions.push(null);
  return suggestions;
};

/**
 * GET /search/explore: up to 12 of the caller's cities with at least 5 assets, each with a
 * visible, unarchived image taken there (the newest, read from the city's index); and the
 * smart-info tags field, empty without machine learning (as Immich's without it).
 */
export const getExploreData = async (auth: Auth): Promise<CityAsset[]> => {
  const cities = new Map<string, number>();
  for (const facet of await timelineRepo.listFacets(auth.user.id)) {
    const city = facet.kind === 'place' ? facet.values[2] : null;
    if (city) cities.set(city, (cities.get(city) ?? 0) + facet.count);
  }
  const eligible = [...cities]
    .filter(([, count]) => count >= 5)
    .map(([city]) => city)
    .sort();
  const items: CityAsset[] = [];
  for (const city of eligible) {
    if (items.length >= 12) break;
    let examined = 0;
    for await (const page of assetRepo.exifPages('city', auth.user.id, city, { descending: true, pageSize: 25 })) {
      const asset = page.find((each) => inTimeline(each) && each.type === 'IMAGE');
      if (asset) {
        items.push({ city, asset });
        break;
      }
      examined += page.length;
      if (examined >= 100) break;
    }
  }
  return items;
};

/**
 * GET /search (deprecated), text mode: the caller's visible, unarchived, untrashed assets having
 * every word of `q` (in make, model, lens, city, state, country, description, file name or a
 * person's name), newest first, at most `size` (250). Served by the postings of the query's
 * longest word (newest first), each candidate checked against the asset itself.
 */
export const searchText = async (auth: Auth, dto: TextSearch): Promise<AssetRecord[]> => {
  const text = dto.q || dto.query;
  if (!text) throw new Invalid('Missing query');
  const size = dto.size ?? 250;
  const terms = words(text);
  const items: AssetRecord[] = [];
  const driver = [...terms].sort((a, b) => b.length - a.length)[0];
  if (driver) {
    const names = new Map<string, string>();
    let examined = 0;
    for await (const assetIds of termRepo.termAssetIdPages(auth.user.id, driver, pageSize(size))) {
      examined += assetIds.length;
      const candidates = (await assetRepo.getMany(assetIds)).filter((asset) => asset.ownerId === auth.user.id && inTimeline(asset));
      const unknownPeople = [...new Set(candidates.flatMap((asset) => asset.personIds))].filter((id) => !names.has(id));
      if (unknownPeople.length > 0)
        for (const person of await personRepo.getMany(auth.user.id, unknownPeople)) names.set(person.id, person.name);
      for (const asset of candidates) {
        const own = new Set(
          assetTerms(
            asset,
            asset.personIds.flatMap((id) => names.get(id) ?? []),
          ),
        );
        if (terms.every((term) => own.has(term)) && !items.some((item) => item.id === asset.id)) items.push(asset);
      }
      if (items.length >= size || examined >= maxTextCandidates) break;
    }
  }
  return items.sort(searchOrder('desc')).slice(0, size);
};
