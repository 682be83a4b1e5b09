import { randomUUID } from 'node:crypto';
import { requireAsset } from '../../access/asset-access.ts';
import { requireFace } from '../../access/face-access.ts';
import { accessLost, Permission } from '../../access/permission.ts';
import { requirePerson } from '../../access/person-access.ts';
import type { FaceEdit } from '../../db/face.repository.ts';
import * as faceRepo from '../../db/face.repository.ts';
import * as personRepo from '../../db/person.repository.ts';
import * as termRepo from '../../db/term.repository.ts';
import { assetTerms } from '../../domain/terms.ts';
import { type FaceRecord, peopleOfFaces } from '../../model/asset.ts';
import type { PersonRecord } from '../../model/person.ts';
import type { Auth } from '../../model/user.ts';
import { type MediaJob, queueMediaJobs } from '../../storage/media-jobs.ts';

/**
 * Editing who is on a photo (Immich's face editor, docs/immich-compatibility.md, "Faces"): a face
 * moved to another person, one drawn by hand, one deleted. Each is one transaction of the asset's
 * faces, people and counts (shared/db/face.repository.ts; whatever the asset's number of faces,
 * more than 45 faces moved at once being one transaction each 45), with what follows from it: the asset's
 * search postings (its people's names), and the feature photos and thumbnails of the people who
 * gained their first face or lost the one their thumbnail shows.
 */

/** Applies `plan` to the asset's faces as they are now (again if they changed meanwhile), then what follows from it. */
const editFaces = async (
  auth: Auth,
  assetId: string,
  permission: Permission,
  plan: (faces: readonly FaceRecord[]) => FaceEdit | undefined,
): Promise<void> => {
  // An edit of many faces is made a part at a time (`more`: shared/db/face.repository.ts), each part read again and no attempt spent.
  for (let attempt = 0; attempt < 5; ) {
    // The caller's own asset, with its faces as they are now (the permissions here are the owner's alone).
    const found = await requireAsset(auth, permission, assetId);
    const edit = plan(found.faces);
    if (!edit) return;
    const after = faceRepo.facesAfter(found.faces, edit);
    const beforeIds = new Set(peopleOfFaces(found.faces));
    const afterIds = new Set(peopleOfFaces(after));
    const people = new Map(
      (await personRepo.getMany(auth.user.id, [...new Set([...beforeIds, ...afterIds])])).map((person) => [person.id, person]),
    );
    const names = (ids: Set<string>) => [...ids].flatMap((id) => [people.get(id)?.name ?? '']);
    const termsBefore = new Set(assetTerms(found.asset, names(beforeIds)));
    const termsAfter = new Set(assetTerms(found.asset, names(afterIds)));
    // The asset becomes findable by a new person's name first (as an upload writes them), and stops being by a gone one's after.
    await termRepo.writePostings(
      auth.user.id,
      termRepo.postingsOf(
        found.asset,
        [...termsAfter].filter((term) => !termsBefore.has(term)),
      ),
    );
    const outcome = await faceRepo.editAssetFaces(found.asset, found.faces, edit);
    if (!outcome.ok && outcome.reason === 'person-gone') throw accessLost(Permission.PersonRead);
    if (!outcome.ok) {
      attempt++;
      continue;
    }
    if (outcome.value === 'more') continue;
    await termRepo.deletePostings(
      auth.user.id,
      termRepo.postingsOf(
        found.asset,
        [...termsBefore].filter((term) => !termsAfter.has(term)),
      ),
    );
    // Who got a face from this edit, and who is no longer on the asset.
    const gained = new Set([...(edit.moves?.values() ?? []), ...peopleOfFaces(edit.add ? [edit.add] : [])]);
    await refreshFeaturePhotos(
      assetId,
      [...gained],
      [...beforeIds].filter((id) => !afterIds.has(id)),
      people,
    );
    return;
  }
  throw new Error(`The faces of asset ${assetId} kept changing while they were edited`);
};

/**
 * Immich's `createNewFeaturePhoto` for the people an edit touched: one who gained a face and has
 * no feature photo takes this asset; one who left this asset while it was their feature photo
 * takes another asset of theirs (or none). Their thumbnails are made again by the media function.
 */
const refreshFeaturePhotos = async (
  assetId: string,
  gained: readonly string[],
  left: readonly string[],
  people: ReadonlyMap<string, PersonRecord>,
): Promise<void> => {
  const jobs: MediaJob[] = [];
  for (const id of gained) {
    const person = people.get(id);
    if (!person || person.faceAssetId !== null) continue;
    if ((await personRepo.update(person, { faceAssetId: assetId })).ok)
      jobs.push({ kind: 'person-thumbnail', ownerId: person.ownerId, personId: id });
  }
  for (const id of left) {
    const person = people.get(id);
    if (!person || person.faceAssetId !== assetId) continue;
    const next = (await personRepo.listFaces(id)).find((face) => face.assetId !== assetId)?.assetId ?? null;
    if ((await personRepo.update(person, { faceAssetId: next })).ok && next)
      jobs.push({ kind: 'person-thumbnail', ownerId: person.ownerId, personId: id });
  }
  if (jobs.length > 0) await queueMediaJobs(jobs);
};

/** PUT /face/:id and PUT /faces/:id (`id` the person, the body's `id` the face): the face shows this person; the person as it is then. */
export const reassignFaceById = async (auth: Auth, personId: string, faceId: string): Promise<PersonRecord> => {
  const person = await requirePerson(auth, Permission.PersonWrite, personId);
  const face = await requireFace(auth, Permission.PersonCreate, faceId);
  await editFaces(auth, face.assetId, Permission.PersonCreate, (faces) => {
    const current = faces.find((each) => each.id === face.id);
    if (!current) throw accessLost(Permission.PersonCreate);
    return current.personId === person.id ? undefined : { moves: new Map([[face.id, person.id]]) };
  });
  return (await personRepo.get(auth.user.id, person.id)) ?? person;
};

/**
 * PUT /person/:id/reassign and PUT /people/:id/reassign: for each `{assetId, personId}`, that
 * person's faces on that asset show this person instead; the person once per item (Immich's).
 */
export const reassignFaces = async (
  auth: Auth,
  personId: string,
  data: readonly { assetId: string; personId: string }[],
): Promise<PersonRecord[]> => {
  const person = await requirePerson(auth, Permission.PersonWrite, personId);
  for (const item of data) {
    if (item.personId === person.id) continue;
    await editFaces(auth, item.assetId, Permission.PersonCreate, (faces) => {
      const moved = faces.filter((face) => face.personId === item.personId);
      return moved.length === 0 ? undefined : { moves: new Map(moved.map((face) => [face.id, person.id])) };
    });
  }
  const fresh = (await personRepo.get(auth.user.id, person.id)) ?? person;
  return data.map(() => fresh);
};

/** POST /faces: a face drawn by hand on the caller's asset, showing one of their people (Immich's `manual` source). */
export const createFace = async (
  auth: Auth,
  dto: { assetId: string; personId: string; imageWidth: number; imageHeight: number; x: number; y: number; width: number; height: number },
): Promise<void> => {
  const [{ asset }, person] = await Promise.all([
    requireAsset(auth, Permission.AssetUpdate, dto.assetId),
    requirePerson(auth, Permission.PersonRead, dto.personId),
  ]);
  const face: FaceRecord = {
    id: randomUUID(),
    assetId: asset.id,
    personId: person.id,
    ownerId: asset.ownerId,
    imageWidth: dto.imageWidth,
    imageHeight: dto.imageHeight,
    boundingBoxX1: Math.round(dto.x),
    boundingBoxY1: Math.round(dto.y),
    boundingBoxX2: Math.round(dto.x + dto.width),
    boundingBoxY2: Math.round(dto.y + dto.height),
    index: 0,
    sourceType: 'manual',
  };
  await editFaces(auth, asset.id, Permission.AssetUpdate, (faces) => ({
    // After the file's regions, in the order drawn.
    add: { ...face, index: Math.max(-1, ...faces.map((each) => each.index)) + 1 },
  }));
};

/** DELETE /faces/:id: the face goes (`force` or not: no detection here would find it again). */
export const deleteFace = async (auth: Auth, faceId: string): Promise<void> => {
  const face = await requireFace(auth, Permission.FaceDelete, faceId);
  await editFaces(auth, face.assetId, Permission.FaceDelete, (faces) =>
    faces.some((each) => each.id === face.id) ? { remove: face.id } : undefined,
  );
};
