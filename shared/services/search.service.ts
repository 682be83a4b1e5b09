import { Invalid } from '../core/errors.ts';
import {
  type AssetPageOptions,
  exifPages,
  getAsset,
  getAssetByChecksum,
  getAssets,
  getFacesOf,
  timelinePages,
} from '../db/asset.repository.ts';
import { getPeople, personAssetIdPages } from '../db/person.repository.ts';
import { termAssetIdPages } from '../db/term.repository.ts';
import { checksumHex, matchesSearch, searchOrder } from '../domain/search.ts';
import { assetTerms, words } from '../domain/terms.ts';
import { type AssetResponseDto, mapAsset } from '../mappers/asset.mapper.ts';
import type { AssetRecord, FaceRecord, SearchableExifField } from '../model/asset.ts';
import type { PersonRecord } from '../model/person.ts';
import type { Auth } from '../model/user.ts';
import type { SearchAssetsInput, SearchInput } from '../schemas/search.ts';

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
  for await (const page of personAssetIdPages(personId, { descending: order === 'desc', pageSize: pageSize(wanted) })) {
    yield await getAssets(page.filter((id) => !seen.has(id) && seen.add(id)));
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
const chooseDriver = async (auth: Auth, filters: SearchAssetsInput, order: Order, wanted: number): Promise<Driver | undefined> => {
  const owner = auth.user.id;
  if (filters.id) {
    const id = filters.id;
    return pointDriver(() => getAsset(id));
  }
  if (filters.originalPath) {
    const id = idInPath.exec(filters.originalPath)?.[1];
    return id ? pointDriver(() => getAsset(id)) : undefined;
  }
  if (filters.checksum) {
    const hex = checksumHex(filters.checksum);
    return pointDriver(() => getAssetByChecksum(owner, hex));
  }
  if (filters.personIds && filters.personIds.length > 0) {
    const wantedIds = [...new Set(filters.personIds)];
    const people = await getPeople(owner, wantedIds);
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
  if (exif) return exifPages(exif, owner, filters[exif] ?? '', window);
  return timelinePages(owner, window);
};

/** Loaded faces and people for `withPeople`: the assets' faces by key (their ids are on the asset), then their people. */
const peopleOf = async (owner: string, assets: readonly AssetRecord[]) => {
  const faces = await getFacesOf(assets);
  const people = await getPeople(owner, [...new Set(assets.flatMap((asset) => asset.personIds))]);
  const byAsset = new Map<string, FaceRecord[]>();
  for (const face of faces) byAsset.set(face.assetId, [...(byAsset.get(face.assetId) ?? []), face]);
  for (const list of byAsset.values()) list.sort((a, b) => a.index - b.index);
  return { byAsset, people: new Map<string, PersonRecord>(people.map((person) => [person.id, person])) };
};

/**
 * Most candidates one request may examine when only unindexed filters apply (e.g. a file-name
 * substring): the results found by then are the answer (docs/data-model.md, "Search").
 */
export const maxExamined = 25_000;

/** The deepest result a request may ask for (`page × size`): deeper pages would read the library again and again. */
export const maxResultDepth = 10_000;

/** Most candidate assets one text search reads before it answers with what it found. */
export const maxTextCandidates = 5_000;

/**
 * GET /assets (searchAssets): Immich's metadata search over the caller's assets. The result is
 * exactly the in-memory filter of the library in (fileCreatedAt, id) order, paged by page/size;
 * the work follows the driver (see chooseDriver and docs/data-model.md).
 */
export const searchAssets = async (auth: Auth, filters: SearchAssetsInput): Promise<AssetResponseDto[]> => {
  const order: Order = filters.order ?? 'desc';
  const size = filters.size ?? 250;
  const page = filters.page ?? 1;
  const wanted = page * size;
  if (wanted > maxResultDepth) throw new Invalid(`page × size must not be greater than ${maxResultDepth}`);
  const driver = await chooseDriver(auth, filters, order, wanted);
  const found: AssetRecord[] = [];
  let examined = 0;
  if (driver) {
    for await (const batch of driver) {
      examined += batch.length;
      found.push(...batch.filter((asset) => asset.ownerId === auth.user.id && matchesSearch(asset, filters)));
      if (found.length >= wanted || examined >= maxExamined) break;
    }
  }
  // Drivers deliver in index order already; sorting again makes point and person drivers exact too.
  const pageItems = found.sort(searchOrder(order)).slice((page - 1) * size, page * size);
  const loaded = filters.withPeople ? await peopleOf(auth.user.id, pageItems) : undefined;
  return pageItems.map((asset) =>
    mapAsset(asset, {
      callerId: auth.user.id,
      withExif: filters.withExif === true,
      ...(loaded ? { faces: loaded.byAsset.get(asset.id) ?? [], people: loaded.people } : {}),
    }),
  );
};

export interface SearchResponseDto {
  albums: { total: number; count: number; items: unknown[]; facets: unknown[] };
  assets: { total: number; count: number; items: AssetResponseDto[]; facets: unknown[]; nextPage: string | null };
}

/**
 * GET /search (deprecated), text mode: the caller's visible, unarchived, untrashed assets having
 * every word of `q` (in make, model, lens, city, state, country, description, file name or a
 * person's name), newest first, at most `size` (250). Served by the postings of the query's
 * longest word (newest first), each candidate checked against the asset itself.
 */
export const searchText = async (auth: Auth, dto: SearchInput): Promise<SearchResponseDto> => {
  const text = dto.q || dto.query;
  if (!text) throw new Invalid('Missing query');
  if (dto.smart || dto.clip) throw new Invalid('Smart search is not enabled');
  const size = dto.size ?? 250;
  const terms = words(text);
  const items: AssetRecord[] = [];
  const driver = [...terms].sort((a, b) => b.length - a.length)[0];
  if (driver) {
    const names = new Map<string, string>();
    let examined = 0;
    for await (const assetIds of termAssetIdPages(auth.user.id, driver, pageSize(size))) {
      examined += assetIds.length;
      const candidates = (await getAssets(assetIds)).filter(
        (asset) => asset.ownerId === auth.user.id && asset.isVisible && !asset.isArchived && asset.deletedAt === null,
      );
      const unknownPeople = [...new Set(candidates.flatMap((asset) => asset.personIds))].filter((id) => !names.has(id));
      if (unknownPeople.length > 0) for (const person of await getPeople(auth.user.id, unknownPeople)) names.set(person.id, person.name);
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
  const page = items
    .sort(searchOrder('desc'))
    .slice(0, size)
    .map((asset) => mapAsset(asset, { callerId: auth.user.id, withExif: true, withSmartInfo: true }));
  return {
    albums: { total: 0, count: 0, items: [], facets: [] },
    assets: { total: page.length, count: page.length, items: page, facets: [], nextPage: null },
  };
};
