/**
 * The map and the places pages (docs/places.md): markers from the map index, an album's markers,
 * one asset a city, and the map style the configuration names.
 */

import { requireAlbum } from '../access/album-access.ts';
import { Permission } from '../access/permission.ts';
import { requireVisitorAlbum } from '../access/shared-link-access.ts';
import { inBatches } from '../core/concurrency.ts';
import { DomainError, Invalid } from '../core/errors.ts';
import { readAhead } from '../core/read-ahead.ts';
import { type SafeFetchResult, safeFetch, UrlRefused } from '../core/safe-fetch.ts';
import * as albumRepo from '../db/album.repository.ts';
import * as assetRepo from '../db/asset.repository.ts';
import type { KeyRange, PositionedAsset } from '../db/map.repository.ts';
import * as mapRepo from '../db/map.repository.ts';
import * as partnerRepo from '../db/partner.repository.ts';
import * as timelineRepo from '../db/timeline.repository.ts';
import { type AssetRecord, inTimeline } from '../model/asset.ts';
import type { MapMarker, MarkerFilters } from '../model/place.ts';
import type { Auth } from '../model/user.ts';
import { readConfig } from './config.reader.ts';
import { timelinePartners } from './partner.service.ts';

const markerOf = (asset: PositionedAsset): MapMarker => ({
  id: asset.assetId,
  lat: asset.latitude,
  lon: asset.longitude,
  city: asset.city,
  state: asset.state,
  country: asset.country,
});

const within = (asset: PositionedAsset, filters: MarkerFilters): boolean =>
  (!filters.fileCreatedAfter || asset.fileCreatedAt >= filters.fileCreatedAfter) &&
  (!filters.fileCreatedBefore || asset.fileCreatedAt <= filters.fileCreatedBefore) &&
  (filters.isFavorite === undefined || asset.isFavorite === filters.isFavorite);

/** The caller's own from the visibilities asked for; another user's from their timeline, when the timeline is asked for. */
const shown = (asset: PositionedAsset, auth: Auth, filters: MarkerFilters): boolean =>
  asset.ownerId === auth.user.id
    ? (asset.visibility === 'timeline' || asset.visibility === 'archive') && filters.visibilities.includes(asset.visibility)
    : asset.visibility === 'timeline' && filters.visibilities.includes('timeline');

const newestFirst = (a: PositionedAsset, b: PositionedAsset): number =>
  b.fileCreatedAt.localeCompare(a.fileCreatedAt) || b.assetId.localeCompare(a.assetId);

/** The map index's order (its sort key `<fileCreatedAt>#<assetId>`, descending): whether `a` comes before `b`. */
const before = (a: PositionedAsset, b: PositionedAsset): boolean =>
  a.fileCreatedAt !== b.fileCreatedAt ? a.fileCreatedAt > b.fileCreatedAt : a.assetId > b.assetId;

/** The users who share their library with the caller (all of them, as Immich's markers read them). */
const sharingPartners = async (auth: Auth): Promise<string[]> =>
  (await partnerRepo.listSharingWith(auth.user.id)).map((partner) => partner.sharedById);

/**
 * How an owner's map index is read (docs/places.md, "The map"): its window cut into this many date
 * ranges, read this many at once (all owners together), a page of this many items each (about
 * 350 KB of the index's projection: a page in flight costs several times that in memory), each
 * range holding at most this many pages ahead of what is written: what is held is bounded by
 * `readers × (pagesAhead + 1)` pages, whatever the library.
 */
export const markerReads = { rangesPerOwner: 32, readers: 4, pageSize: 500, pagesAhead: 2 };

/** Positioned assets newest first, a page at a time. */
type Pages = AsyncGenerator<PositionedAsset[], void, void>;

/** An owner's positioned assets in the window, newest first: its ranges read several at once, written in order. */
const ownerPages = (ownerId: string, ranges: readonly KeyRange[], readers: number): Pages =>
  readAhead(
    ranges.map((range) => () => mapRepo.positionedPages(ownerId, range, markerReads.pageSize)),
    { concurrency: readers, ahead: markerReads.pagesAhead },
  );

/** Values already held, as one of the merge's sequences. */
async function* listed(values: readonly PositionedAsset[]): AsyncGenerator<PositionedAsset[], void, void> {
  yield [...values];
}

/** Up to this many merged assets are handed on at once. */
const mergedPageSize = 1000;

/**
 * Several newest-first sequences as one, newest first (each owner's map index, the albums'
 * others), a page at a time: the next asset is the newest of the sequences' current ones.
 */
async function* merged(streams: readonly Pages[]): AsyncGenerator<PositionedAsset[], void, void> {
  // Each sequence's current page and where it is in it; a sequence whose pages are done leaves.
  const cursors: { stream: Pages; page: PositionedAsset[]; at: number }[] = [];
  const refill = async (cursor: { stream: Pages; page: PositionedAsset[]; at: number }): Promise<boolean> => {
    while (cursor.at >= cursor.page.length) {
      const next = await cursor.stream.next();
      if (next.done) return false;
      cursor.page = next.value;
      cursor.at = 0;
    }
    return true;
  };
  try {
    for (const stream of streams) {
      const cursor = { stream, page: [], at: 0 };
      if (await refill(cursor)) cursors.push(cursor);
    }
    let out: PositionedAsset[] = [];
    while (cursors.length > 0) {
      let newest = 0;
      for (let i = 1; i < cursors.length; i++) {
        const cursor = cursors[i] as (typeof cursors)[number];
        const best = cursors[newest] as (typeof cursors)[number];
        if (before(cursor.page[cursor.at] as PositionedAsset, best.page[best.at] as PositionedAsset)) newest = i;
      }
      const cursor = cursors[newest] as (typeof cursors)[number];
      out.push(cursor.page[cursor.at] as PositionedAsset);
      cursor.at++;
      if (cursor.at >= cursor.page.length) {
        if (out.length > 0) {
          yield out;
          out = [];
        }
        if (!(await refill(cursor))) cursors.splice(newest, 1);
      } else if (out.length >= mergedPageSize) {
        yield out;
        out = [];
      }
    }
    if (out.length > 0) yield out;
  } finally {
    await Promise.all(streams.map((stream) => stream.return()));
  }
}

/** A JSON array written element by element as the markers are read (the map's answer, streamed). */
export type MarkerWriter = (sink: { write(text: string): Promise<void> | void }) => Promise<void>;

/**
 * The markers of `owners`' map indexes (and `others`, already newest first) that `keep` keeps, as a
 * writer of the JSON array Immich answers: every range of every owner is found before the first
 * byte (a failure then is Immich's JSON error), the markers are read and written as they come.
 */
const markerWriter = async (
  owners: readonly string[],
  filters: MarkerFilters,
  keep: (asset: PositionedAsset) => boolean,
  others: readonly PositionedAsset[] = [],
): Promise<MarkerWriter> => {
  const window = {
    ...(filters.fileCreatedAfter ? { after: filters.fileCreatedAfter } : {}),
    ...(filters.fileCreatedBefore ? { before: filters.fileCreatedBefore } : {}),
  };
  const ranges = await Promise.all(owners.map((owner) => mapRepo.positionedRanges(owner, window, markerReads.rangesPerOwner)));
  const readers = Math.max(1, Math.floor(markerReads.readers / Math.max(1, owners.length)));
  return async (sink) => {
    const streams: Pages[] = owners.map((owner, i) => ownerPages(owner, ranges[i] ?? [], readers));
    if (others.length > 0) streams.push(listed(others));
    // Written in pieces of about this many characters (fewer, larger writes).
    let text = '[';
    let first = true;
    for await (const page of streams.length === 1 ? (streams[0] as Pages) : merged(streams))
      for (const asset of page) {
        if (!keep(asset)) continue;
        text += `${first ? '' : ','}${JSON.stringify(markerOf(asset))}`;
        first = false;
        if (text.length >= 16_384) {
          await sink.write(text);
          text = '';
        }
      }
    await sink.write(`${text}]`);
  };
};

/**
 * GET /asset/map-marker (v1.100): the caller's untrashed, visible assets with a position, and with
 * `withPartners` those of the users sharing with them, newest first, from the visibilities asked
 * for (v1.100's `isArchived` absent: archived and not, as Immich v1.100). A partner's archive stays theirs (as in the metadata search:
 * docs/immich-compatibility.md). The locked folder never shows (v1.100 knows none).
 * Streamed (docs/places.md, "The map"): the writer of its JSON array.
 */
export const getMapMarkers = async (auth: Auth, filters: MarkerFilters): Promise<MarkerWriter> => {
  const owners = [auth.user.id, ...(filters.withPartners ? await sharingPartners(auth) : [])];
  return markerWriter(owners, filters, (asset) => asset.deletedAt === null && within(asset, filters) && shown(asset, auth, filters));
};

/** Album members are read by key this many at a time. */
const albumReadBatch = 100;

/**
 * The positioned assets of every album the caller owns or is in that none of `owners` owns (theirs
 * come from their map index), newest first. Held until written: they are few beside a library
 * (another user's shared albums), each a positioned asset's few fields.
 */
const sharedAlbumsOthers = async (auth: Auth, owners: readonly string[]): Promise<PositionedAsset[]> => {
  const albumIds = [...(await albumRepo.list(auth.user.id)).map((album) => album.id), ...(await albumRepo.listIdsSharedWith(auth.user.id))];
  const memberIds = new Set<string>();
  await inBatches([...new Set(albumIds)], 8, async (albumId) => {
    for (const member of await albumRepo.listMembers(albumId)) memberIds.add(member.assetId);
  });
  const ids = [...memberIds];
  const others: PositionedAsset[] = [];
  const chunks = Array.from({ length: Math.ceil(ids.length / albumReadBatch) }, (_, i) =>
    ids.slice(i * albumReadBatch, (i + 1) * albumReadBatch),
  );
  await inBatches(chunks, 4, async (chunk) => {
    for (const asset of await assetRepo.getMany(chunk)) {
      const positioned = owners.includes(asset.ownerId) ? undefined : mapRepo.positionOf(asset);
      if (positioned) others.push(positioned);
    }
  });
  return others.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
};

/**
 * GET /map/markers (v3): the caller's untrashed assets with a position from the visibilities asked
 * for (the timeline, with v3's `isArchived` their own archive too), with `withPartners` those of the users sharing with them,
 * with `withSharedAlbums` those of every album they own or are in; newest first, each once.
 * Streamed (docs/places.md, "The map"): the writer of its JSON array.
 */
export const getMapMarkersV3 = async (auth: Auth, filters: MarkerFilters): Promise<MarkerWriter> => {
  const owners = [auth.user.id, ...(filters.withPartners ? await sharingPartners(auth) : [])];
  const others = filters.withSharedAlbums ? await sharedAlbumsOthers(auth, owners) : [];
  return markerWriter(
    owners,
    filters,
    (asset) => asset.deletedAt === null && within(asset, filters) && shown(asset, auth, filters),
    others,
  );
};

/**
 * GET /albums/:id/map-markers (v3.2): the album's untrashed assets with a position, newest first;
 * a link's visitor gets none when the link hides metadata (as Immich).
 */
export const getAlbumMapMarkers = async (auth: Auth, albumId: string): Promise<MapMarker[]> => {
  if (auth.sharedLink) {
    const link = await requireVisitorAlbum(auth, albumId);
    if (!link.showExif) return [];
  } else await requireAlbum(auth, Permission.AlbumRead, albumId);
  const members = await albumRepo.listMembers(albumId);
  return (await assetRepo.getMany(members.map((member) => member.assetId)))
    .flatMap((asset) => mapRepo.positionOf(asset) ?? [])
    .filter((asset) => asset.deletedAt === null && asset.visibility !== 'locked')
    .sort(newestFirst)
    .map(markerOf);
};

/** Most assets of a city read to find one to show (its index, newest first). */
const maxCityCandidates = 100;

/**
 * GET /search/cities (getAssetsByCity): one image of each city of the caller's and their timeline
 * partners' libraries, visible, unarchived and untrashed, by city name (the newest taken there).
 * The cities come from the facet counters; each city's image from its index (one Query a city).
 */
export const getAssetsByCity = async (auth: Auth): Promise<AssetRecord[]> => {
  const owners = [auth.user.id, ...(await timelinePartners(auth))];
  const cities = new Map<string, Set<string>>();
  for (const owner of owners)
    for (const facet of await timelineRepo.listFacets(owner)) {
      const city = facet.kind === 'place' && facet.count > 0 ? facet.values[2] : null;
      if (city) cities.set(city, (cities.get(city) ?? new Set()).add(owner));
    }
  const chosen = new Map<string, AssetRecord>();
  await inBatches([...cities], 8, async ([city, cityOwners]) => {
    for (const owner of cityOwners) {
      let examined = 0;
      for await (const page of assetRepo.exifPages('city', owner, city, { descending: true, pageSize: 25 })) {
        const asset = page.find((each) => inTimeline(each) && each.type === 'IMAGE' && each.visibility === 'timeline');
        const best = chosen.get(city);
        if (asset && (!best || asset.fileCreatedAt > best.fileCreatedAt)) chosen.set(city, asset);
        examined += page.length;
        if (asset || examined >= maxCityCandidates) break;
      }
    }
  });
  return [...chosen].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, asset]) => asset);
};

/** The map style could not be read from where the configuration says. */
class MapStyleUnavailable extends DomainError {
  constructor(url: string, reason: string) {
    super('upstream', `The map style could not be read from ${url}: ${reason}`);
  }
}

/**
 * How the style is read (docs/immich-compatibility.md, "Places and the map"): 5 s in all, 4 MB
 * (the answer must fit Lambda's 6 MB), 5 redirects. Immich's styles are about 100 KB.
 */
const styleFetchLimits = { timeoutMs: 5_000, maxBytes: 4 * 1024 * 1024, maxRedirects: 5, accept: 'application/json' };

/** Immich's own tile service's styles: where an empty style setting points (Immich v3.2's defaults). */
const defaultMapStyles = {
  light: 'https://tiles.immich.cloud/v1/style/light.json',
  dark: 'https://tiles.immich.cloud/v1/style/dark.json',
} as const;

/**
 * GET /system-config/map/style.json (v1.100): the style the configuration names for the theme,
 * read from its URL as Immich's server reads it (the browser then fetches the tiles it names;
 * this server hosts none). An empty setting reads Immich's own tile service's style.
 */
export const getMapStyle = async (theme: 'light' | 'dark'): Promise<unknown> => {
  const { map } = await readConfig();
  const url = (theme === 'dark' ? map.darkStyle : map.lightStyle) || defaultMapStyles[theme];
  let response: SafeFetchResult;
  try {
    response = await safeFetch(url, styleFetchLimits);
  } catch (error) {
    // A place this server does not read (shared/core/safe-fetch.ts): the settings' fault, said as a 400.
    if (error instanceof UrlRefused) throw new Invalid(`The map style URL is not read: ${error.message}`);
    throw new MapStyleUnavailable(url, error instanceof Error ? error.message : String(error));
  }
  if (response.status < 200 || response.status > 299) throw new MapStyleUnavailable(url, `HTTP ${response.status}`);
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new MapStyleUnavailable(url, 'not JSON');
  }
};
