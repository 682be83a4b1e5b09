import { requireAsset } from '../../access/asset-access.ts';
import { accessLost, Permission } from '../../access/permission.ts';
import { requirePerson } from '../../access/person-access.ts';
import { inBatches } from '../../core/concurrency.ts';
import { DomainError, Invalid } from '../../core/errors.ts';
import * as assetRepo from '../../db/asset.repository.ts';
import * as personRepo from '../../db/person.repository.ts';
import * as termRepo from '../../db/term.repository.ts';
import { nameTerms } from '../../domain/terms.ts';
import type { BulkIdResult } from '../../model/album.ts';
import { type AssetDetail, byFileCreatedAt, type FaceEntry, inTimeline } from '../../model/asset.ts';
import {
  birthDay,
  type NewPerson,
  newPerson,
  type People,
  type PersonChanges,
  type PersonEdit,
  type PersonRecord,
} from '../../model/person.ts';
import type { Auth } from '../../model/user.ts';
import { queueMediaJobs } from '../../storage/media-jobs.ts';

/**
 * The owner's people, each with their count of faces in the timeline; those stored before it was
 * kept are counted once (docs/data-model.md, "Earlier shapes"), eight at a time.
 */
const peopleCounted = async (ownerId: string): Promise<PersonRecord[]> => {
  const people = await personRepo.list(ownerId);
  await inBatches(people, 8, async (person, index) => {
    if (person.timelineFaceCount === null) people[index] = await personRepo.countTimelineFaces(person);
  });
  return people;
};

/**
 * A person's faces on photos in the timeline (not archived, trashed, hidden or locked): Immich's
 * person repository lists, counts and orders people by them. One not counted yet (a write came
 * between its count and the read) goes by all their faces, as before the count was kept.
 */
const timelineFaces = (person: PersonRecord): number => person.timelineFaceCount ?? person.faceCount;

/**
 * GET /person and GET /people, in Immich's order: visible before hidden, favourites first, named
 * before unnamed, more faces first, then by name. Only people with a face on a photo in the
 * timeline are listed and counted (Immich's join of faces to timeline assets): one seen only in
 * locked, archived or trashed photos is not (docs/immich-compatibility.md, "Faces"). `total` counts
 * them, `hidden` the hidden ones. v3 pages them (`page` from 1, `size`), saying whether another
 * page follows.
 */
export const getAllPeople = async (auth: Auth, withHidden: boolean, paging?: { page: number; size: number }): Promise<People> => {
  const all = (await peopleCounted(auth.user.id)).filter((person) => timelineFaces(person) > 0);
  const ordered = all
    .filter((person) => withHidden || !person.isHidden)
    .sort(
      (a, b) =>
        Number(a.isHidden) - Number(b.isHidden) ||
        Number(b.isFavorite) - Number(a.isFavorite) ||
        Number(a.name === '') - Number(b.name === '') ||
        timelineFaces(b) - timelineFaces(a) ||
        a.name.localeCompare(b.name) ||
        a.id.localeCompare(b.id),
    );
  const counts = { total: all.length, hidden: all.filter((person) => person.isHidden).length };
  if (!paging) return { ...counts, people: ordered };
  const start = (paging.page - 1) * paging.size;
  return { ...counts, people: ordered.slice(start, start + paging.size), hasNextPage: ordered.length > start + paging.size };
};

export const getPerson = (auth: Auth, id: string): Promise<PersonRecord> => requirePerson(auth, Permission.PersonRead, id);

/**
 * PUT /person/:id and PUT /people/:id: name, birth date, hidden, the feature face (an asset of the
 * caller's showing this person), and v3's favourite and colour.
 */
export const updatePerson = async (auth: Auth, id: string, dto: PersonEdit): Promise<PersonRecord> => {
  const person = await requirePerson(auth, Permission.PersonWrite, id);
  const changes: PersonChanges = {};
  if (dto.name !== undefined) changes.name = dto.name;
  if (dto.birthDate !== undefined) changes.birthDate = birthDay(dto.birthDate);
  if (dto.isHidden !== undefined) changes.isHidden = dto.isHidden;
  if (dto.isFavorite !== undefined) changes.isFavorite = dto.isFavorite;
  if (dto.color !== undefined) changes.color = dto.color;
  if (dto.featureFaceAssetId !== undefined) {
    const { faces } = await requireAsset(auth, Permission.AssetRead, dto.featureFaceAssetId);
    if (!faces.some((face) => face.personId === person.id)) throw new Invalid('Invalid assetId for feature face');
    changes.faceAssetId = dto.featureFaceAssetId;
  }
  if (changes.name !== undefined && nameTerms(changes.name).length > 0) {
    // The person's assets become findable by the new name (postings first, as for uploads).
    const faces = await personRepo.listFaces(person.id);
    const assets = new Map(faces.map((face) => [face.assetId, { id: face.assetId, fileCreatedAt: face.fileCreatedAt }]));
    await termRepo.writePostings(
      auth.user.id,
      [...assets.values()].flatMap((asset) => termRepo.postingsOf(asset, nameTerms(changes.name))),
    );
  }
  const written = await personRepo.update(person, changes);
  if (!written.ok) throw accessLost(Permission.PersonWrite);
  const updated = written.value;
  // A new feature face: the media function crops the new thumbnail (Immich queues the same job).
  if (changes.faceAssetId !== undefined && changes.faceAssetId !== person.faceAssetId)
    await queueMediaJobs([{ kind: 'person-thumbnail', ownerId: person.ownerId, personId: person.id }]);
  return updated;
};

/**
 * GET /person/:id/statistics: how many assets GET /person/:id/assets shows (visible, unarchived,
 * untrashed), counted from the person's faces (their copies of each asset's status), without
 * reading the assets. Immich v1.100 also leaves out photos with a live video, which its own asset
 * list shows: here the count and the list agree.
 */
export const getPersonStatistics = async (auth: Auth, id: string): Promise<number> => {
  const person = await requirePerson(auth, Permission.PersonRead, id);
  const faces = (await personRepo.listFaces(person.id)).filter((face) => inTimeline(face));
  return new Set(faces.map((face) => face.assetId)).size;
};

/** Most assets GET /person/:id/assets returns (Immich's limit; it has no paging). */
const personAssetsLimit = 1000;

/**
 * GET /person/:id/assets: the owner's visible, unarchived, untrashed assets showing this person,
 * newest first (ties by id), at most 1000, with EXIF and `people` = this person with their faces
 * on that asset. One Query on the person's faces (gsi2, which carries each asset's status), then
 * BatchGetItem of the assets in chunks of 100.
 */
export const getPersonAssets = async (auth: Auth, id: string): Promise<AssetDetail[]> => {
  const person = await requirePerson(auth, Permission.PersonRead, id);
  const faces = (await personRepo.listFaces(person.id, { descending: true })).filter((face) => inTimeline(face));
  const facesByAsset = new Map<string, FaceEntry[]>();
  for (const face of faces) facesByAsset.set(face.assetId, [...(facesByAsset.get(face.assetId) ?? []), face]);
  // Faces in the order the file lists them (the index sorts by date and random face ids).
  for (const list of facesByAsset.values()) list.sort((a, b) => a.index - b.index);
  const order = [...facesByAsset.keys()]
    .map((assetId) => ({ id: assetId, fileCreatedAt: facesByAsset.get(assetId)?.[0]?.fileCreatedAt ?? '' }))
    .sort(byFileCreatedAt('desc'))
    .slice(0, personAssetsLimit);
  const assets = (await assetRepo.getMany(order.map((entry) => entry.id)))
    .filter((asset) => asset.ownerId === auth.user.id && inTimeline(asset))
    .sort(byFileCreatedAt('desc'));
  return assets.map((asset) => ({ asset, faces: facesByAsset.get(asset.id) ?? [], people: [person] }));
};

/**
 * POST /person: a person of the caller's with no faces yet (Immich lists people by their faces, so
 * not in GET /person until they have some). Stored with the birth date's day; answered, as Immich
 * answers its create, with the instant sent (`1990-01-01T05:00:00.000Z`, Immich's e2e case).
 */
export const createPerson = async (auth: Auth, dto: NewPerson): Promise<PersonRecord> => {
  const now = new Date().toISOString();
  const person = newPerson(auth.user.id, now, {
    name: dto.name ?? '',
    birthDate: birthDay(dto.birthDate ?? null),
    isHidden: dto.isHidden ?? false,
    isFavorite: dto.isFavorite ?? false,
    color: dto.color ?? null,
  });
  await personRepo.create(person);
  return { ...person, birthDate: dto.birthDate ?? null };
};

/** PUT /person: each person updated as PUT /person/:id would; a failure is that id's `unknown`, as Immich answers. */
export const updatePeople = async (auth: Auth, people: readonly (PersonEdit & { id: string })[]): Promise<BulkIdResult[]> => {
  const results: BulkIdResult[] = [];
  for (const { id, ...changes } of people) {
    try {
      await updatePerson(auth, id, changes);
      results.push({ id, success: true });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      results.push({ id, success: false, error: 'unknown' });
    }
  }
  return results;
};

/**
 * GET /search/person: the caller's people whose name starts with `name`, or has a word that does
 * (case-insensitive, accents ignored: Immich v1.100's `LIKE 'name%' OR LIKE '% name%'`), hidden
 * ones only `withHidden`, those with the most faces first, at most `limit`. A person whose faces
 * are all on photos out of the timeline (locked, archived, trashed) is not found: their name would
 * tell of a locked photo (Immich's search finds them; docs/immich-compatibility.md, "Faces").
 */
export const searchPeople = async (auth: Auth, name: string, withHidden: boolean, limit: number): Promise<PersonRecord[]> => {
  const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  const wanted = fold(name);
  return (await peopleCounted(auth.user.id))
    .filter((person) => withHidden || !person.isHidden)
    .filter((person) => person.faceCount === 0 || timelineFaces(person) > 0)
    .filter((person) => {
      const folded = fold(person.name);
      return folded.startsWith(wanted) || folded.includes(` ${wanted}`);
    })
    .sort((a, b) => timelineFaces(b) - timelineFaces(a) || a.name.localeCompare(b.name))
    .slice(0, limit);
};
