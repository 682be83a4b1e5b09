/**
 * Smart search (docs/search.md): the photos of the caller (and of the partners in their timeline)
 * ranked by how close their CLIP embedding is to the query's (cosine similarity, ties by id, as
 * Immich's `embedding <=> query, id`), then walked in that order through the metadata search's
 * predicate (shared/domain/search.ts) until the page is full. Exact, not approximate: every
 * embedding of those libraries is scored (shared/db/vector-index.repository.ts keeps them in
 * memory), so any page and any filter answer as Immich's would.
 */
import { requireAsset } from '../access/asset-access.ts';
import { Permission } from '../access/permission.ts';
import { Invalid } from '../core/errors.ts';
import * as assetRepo from '../db/asset.repository.ts';
import * as vectorIndexRepo from '../db/vector-index.repository.ts';
import { matchesSearch, type SearchFilters } from '../domain/search.ts';
import { dot, halfView, unitVector } from '../domain/vectors.ts';
import { type MlSettings, smartSearchEnabled } from '../ml/features.ts';
import { encodeText } from '../ml/text.ts';
import type { SearchPage } from '../model/asset.ts';
import type { Auth } from '../model/user.ts';
import { readConfig } from './config.reader.ts';
import { searchScope } from './search-scope.ts';

export interface SmartSearch {
  query?: string | undefined;
  queryAssetId?: string | undefined;
  language?: string | undefined;
  page: number;
  size: number;
  filters: SearchFilters;
}

/** The deepest result a request may ask for (`page × size`), as the metadata search's. */
const maxResultDepth = 10_000;

/** Most ranked candidates one request checks against its filters (read 100 a BatchGetItem): a rare filter answers with what they gave. */
const maxExamined = 25_000;

// Query embeddings by model, text and language, the most recently used kept (Immich's LRU of 100).
const queryCache = new Map<string, Float32Array>();
const queryCacheSize = 100;

const queryEmbedding = async (ml: MlSettings, text: string, language: string | undefined): Promise<Float32Array> => {
  const key = `${ml.clip.modelName}\n${text}\n${language ?? ''}`;
  const cached = queryCache.get(key);
  if (cached) {
    queryCache.delete(key);
    queryCache.set(key, cached);
    return cached;
  }
  const embedding = unitVector(await encodeText(ml, text, language));
  queryCache.set(key, embedding);
  if (queryCache.size > queryCacheSize) queryCache.delete(queryCache.keys().next().value as string);
  return embedding;
};

// The half-float views of a loaded index, made once per index version (the index hands out the same set until it changes).
const views = new WeakMap<vectorIndexRepo.VectorSet, Float16Array[]>();
const viewsOf = (set: vectorIndexRepo.VectorSet): Float16Array[] => {
  let found = views.get(set);
  if (!found) {
    found = set.vectors.map(halfView);
    views.set(set, found);
  }
  return found;
};

interface Ranked {
  id: string;
  owner: string;
  score: number;
}

/** The query's embedding: the text's, or the asset's own (which the caller must be able to read). */
const queryVector = async (auth: Auth, ml: MlSettings, request: SmartSearch): Promise<Float32Array> => {
  if (request.query) return queryEmbedding(ml, request.query, request.language);
  if (request.queryAssetId) {
    const { asset } = await requireAsset(auth, Permission.AssetRead, request.queryAssetId);
    const stored = await vectorIndexRepo.vectorOf(asset.ownerId, 'clip', ml.clip.modelName, asset.id);
    if (!stored) throw new Invalid(`Asset ${request.queryAssetId} has no embedding`);
    return Float32Array.from(halfView(stored));
  }
  throw new Invalid('Either `query` or `queryAssetId` must be set');
};

/**
 * POST /search/smart (both generations) and GET /search's smart mode: a page of the ranked
 * matches, and whether there is a next. 400 `Smart search is not enabled` when machine learning,
 * CLIP or a back end to run it is missing (Immich's); the model's failure is a 502.
 */
export const searchSmart = async (auth: Auth, request: SmartSearch): Promise<SearchPage> => {
  const { machineLearning: ml } = await readConfig();
  if (!(await smartSearchEnabled(ml))) throw new Invalid('Smart search is not enabled');
  const wanted = request.page * request.size;
  if (wanted > maxResultDepth) throw new Invalid(`page × size must not be greater than ${maxResultDepth}`);
  const { owners, filtersOf } = await searchScope(auth, request.filters);
  const query = await queryVector(auth, ml, request);
  const ranked: Ranked[] = [];
  const sets = await Promise.all(owners.map((owner) => vectorIndexRepo.loadVectors(owner, 'clip', ml.clip.modelName)));
  for (const [index, owner] of owners.entries()) {
    const set = sets[index] as vectorIndexRepo.VectorSet;
    const halves = viewsOf(set);
    const among = filtersOf(owner).amongAssets;
    set.ids.forEach((id, i) => {
      if (among && !among.has(id)) return;
      ranked.push({ id, owner, score: dot(query, halves[i] as Float16Array) });
    });
  }
  ranked.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // Walk the ranking, 100 assets a read, until one more than the page's end is found.
  const found: SearchPage['items'] = [];
  const limit = Math.min(ranked.length, maxExamined);
  for (let start = 0; start < limit && found.length <= wanted; start += 100) {
    const batch = ranked.slice(start, Math.min(start + 100, limit));
    const assets = new Map((await assetRepo.getMany(batch.map((entry) => entry.id))).map((asset) => [asset.id, asset]));
    for (const { id, owner } of batch) {
      const asset = assets.get(id);
      // Gone (deleted for good since it was embedded), or no longer the owner's: left out.
      if (asset && asset.ownerId === owner && matchesSearch(asset, filtersOf(owner))) found.push({ asset });
    }
  }
  return { items: found.slice((request.page - 1) * request.size, wanted), hasNextPage: found.length > wanted };
};
