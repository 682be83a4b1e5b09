import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as getAssetInfoV1 } from '#functions/asset/get-asset-info.ts';
import { handler as getFacesV1 } from '#functions/face/get-faces.ts';
import { handler as reassignFaceByIdV1 } from '#functions/face/reassign-faces-by-id.ts';
import { handler as sendJobCommand } from '#functions/job/send-job-command.ts';
import { handler as createPersonV1 } from '#functions/person/create-person.ts';
import { handler as getAllPeopleV1 } from '#functions/person/get-all-people.ts';
import { handler as getPersonThumbnail } from '#functions/person/get-person-thumbnail.ts';
import { handler as mergePerson } from '#functions/person/merge-person.ts';
import { handler as getFeaturesV1 } from '#functions/server-info/get-server-features.ts';
import { handler as getAssetInfoV3 } from '#functions/v3/asset/get-asset-info.ts';
import { handler as deleteFace } from '#functions/v3/face/delete-face.ts';
import { handler as getFacesV3 } from '#functions/v3/face/get-faces.ts';
import { handler as reassignFaceById } from '#functions/v3/face/reassign-faces-by-id.ts';
import { handler as createPersonV3 } from '#functions/v3/person/create-person.ts';
import { handler as getAllPeopleV3 } from '#functions/v3/person/get-all-people.ts';
import { handler as getPersonStatistics } from '#functions/v3/person/get-person-statistics.ts';
import { handler as updatePersonV3 } from '#functions/v3/person/update-person.ts';
import { handler as getFeaturesV3 } from '#functions/v3/server/get-server-features.ts';
import * as assetRepo from '#shared/db/asset.repository.ts';
import * as faceIndexRepo from '#shared/db/face-index.repository.ts';
import { decodeDescriptors, descriptorLength, encodeDescriptors } from '#shared/domain/faces.ts';
import type { AssetFaceResponseDto } from '#shared/dto/v3/person.response.ts';
import { recognizeFace } from '#shared/services/media/faces.service.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { assetInfo } from '../support/library.ts';
import { changeConfig, mediaJobsInProcess, objectCreated, turnOffMl } from '../support/media.ts';
import { type Box, groupFaces, groupPhotoPath, iou, type Person, portrait } from '../support/people-photos.ts';
import { syncStream } from '../support/sync-client.ts';
import { cliFields, upload } from '../support/uploads.ts';

/**
 * Faces from the photos themselves (docs/faces.md): the media job detects faces in each photo's
 * preview, keeps their descriptors in the owner's face index and recognises them as Immich's
 * facial recognition job does; both generations' people and faces routes show the result.
 */
let accounts: Awaited<ReturnType<typeof setupAccounts>>;
const media = mediaJobsInProcess();
const { settle } = media;
beforeAll(async () => {
  accounts = await setupAccounts();
  // Not about OCR or duplicates: off, as each photo's cost (test/support/ml-tasks.ts).
  await turnOffMl(accounts.admin.accessToken, ['ocr', 'duplicateDetection']);
  media.start();
});
afterAll(() => media.stop());

const setConfig = (change: (config: Record<string, any>) => Record<string, any>) => changeConfig(accounts.admin.accessToken, change);
const setRecognition = (change: Record<string, unknown>) =>
  setConfig((config) => ({
    ...config,
    machineLearning: { ...config.machineLearning, facialRecognition: { ...config.machineLearning.facialRecognition, ...change } },
  }));

let uploads = 0;
/** Uploads a JPEG through the CLI's route; with `job`, the media job the bucket's event starts runs (its outcome). */
const uploadPhoto = async (token: string, data: Buffer, options: { job?: boolean } = {}): Promise<string> => {
  const name = `people-${++uploads}.jpg`;
  const reply = await upload(token, { data, fileName: name, fields: cliFields(name, data.length) });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const id = reply.body.id as string;
  if (options.job !== false) await runJob(token, id);
  return id;
};
const runJob = async (token: string, id: string) => {
  const { body } = await assetInfo(token, id);
  expect((await objectCreated(body.originalPath)).outcomes).toEqual({ [body.originalPath]: 'made' });
};
const portraitOf = async (token: string, person: Person, variant: number) => uploadPhoto(token, (await portrait(person, variant)).data);

/** v3's answer of GET /faces. */
type FaceV3 = AssetFaceResponseDto;
const facesV3 = async (token: string, assetId: string): Promise<FaceV3[]> => {
  const reply = await invoke(getFacesV3, { path: '/api/faces', query: { id: assetId }, headers: bearer(token) });
  expect(reply.status).toBe(200);
  return reply.body;
};
const boxOf = (face: FaceV3): Box => ({ x1: face.boundingBoxX1, y1: face.boundingBoxY1, x2: face.boundingBoxX2, y2: face.boundingBoxY2 });
const peopleV1 = async (token: string) =>
  (await invoke(getAllPeopleV1, { path: '/api/person', query: { withHidden: 'true' }, headers: bearer(token) })).body as {
    total: number;
    people: { id: string; name: string; thumbnailPath: string }[];
  };
const peopleV3 = async (token: string) =>
  (await invoke(getAllPeopleV3, { path: '/api/people', query: { withHidden: 'true' }, headers: bearer(token) })).body as {
    total: number;
    people: { id: string; name: string }[];
  };
const statistics = async (token: string, personId: string) =>
  (
    await invoke(getPersonStatistics, {
      path: `/api/people/${personId}/statistics`,
      pathParameters: { id: personId },
      headers: bearer(token),
    })
  ).body.assets as number;

/** Starts one of the admin's job queues (PUT /jobs/:name), then waits for the media jobs it handed on. */
const startJob = async (name: 'faceDetection' | 'facialRecognition', force: boolean) => {
  const started = await invoke(sendJobCommand, {
    method: 'PUT',
    path: `/api/jobs/${name}`,
    pathParameters: { name },
    headers: bearer(accounts.admin.accessToken),
    body: { command: 'start', force },
  });
  expect(started.status).toBe(200);
  await settle();
};

describe('facial recognition in the media job', () => {
  it('reports the feature as the settings say, on both generations', async () => {
    const token = accounts.admin.accessToken;
    const features = async () => [
      (await invoke(getFeaturesV1, { path: '/api/server-info/features', headers: bearer(token) })).body.facialRecognition,
      (await invoke(getFeaturesV3, { path: '/api/server/features', headers: bearer(token) })).body.facialRecognition,
    ];
    expect(await features()).toEqual([true, true]);
    await setRecognition({ enabled: false });
    expect(await features()).toEqual([false, false]);
    await setRecognition({ enabled: true });
    expect(await features()).toEqual([true, true]);
  });

  // First of the photo tests: the jobs it starts go over every photo of this file's library, fewest now.
  it('never brings back a detected face its owner deleted, and detects nothing while facial recognition is off', async () => {
    const user = await freshUser(accounts.admin.accessToken, `Deleted${Date.now()}`);
    const token = user.accessToken;
    await setRecognition({ enabled: false });
    let off: string;
    try {
      off = await portraitOf(token, 'cy', 0);
      expect(await facesV3(token, off)).toEqual([]);
      // The job asked for now does nothing either.
      await startJob('faceDetection', false);
      expect(await facesV3(token, off)).toEqual([]);
    } finally {
      await setRecognition({ enabled: true, minFaces: 1 });
    }
    try {
      // On again: the job finds the faces of the photos never looked at.
      await startJob('faceDetection', false);
      const [face] = await facesV3(token, off);
      expect(face?.sourceType).toBe('machine-learning');
      // Deleted: detection run again everywhere (`force`) finds it again and leaves it deleted.
      expect(
        (
          await invoke(deleteFace, {
            method: 'DELETE',
            path: `/api/faces/${face?.id}`,
            pathParameters: { id: face?.id as string },
            headers: bearer(token),
            body: { force: false },
          })
        ).status,
      ).toBe(204);
      await startJob('faceDetection', true);
      expect(await facesV3(token, off)).toEqual([]);
    } finally {
      await setRecognition({ minFaces: 3 });
    }
  });

  it('groups one person’s photos into one person once three agree, finds their faces where they are, and keeps different people apart', async () => {
    const user = await freshUser(accounts.admin.accessToken, `Faces${Date.now()}`);
    const token = user.accessToken;
    const ana = [await portraitOf(token, 'ana', 0), await portraitOf(token, 'ana', 1)];
    // Two faces agree: Immich's minFaces (3) is not reached, so no one yet (the face is listed, without a person).
    expect((await peopleV1(token)).total).toBe(0);
    expect((await facesV3(token, ana[0] as string)).map((face) => face.person)).toEqual([null]);
    ana.push(await portraitOf(token, 'ana', 2));
    const cy = [await portraitOf(token, 'cy', 0), await portraitOf(token, 'cy', 1), await portraitOf(token, 'cy', 3)];
    const people = await peopleV1(token);
    expect(people.total).toBe(2);
    // Each face is where the woman's face is in that portrait (its box in the original's pixels).
    for (const [person, ids] of [
      ['ana', ana],
      ['cy', cy],
    ] as const) {
      const owners = new Set<string>();
      for (const [variant, id] of ids.entries()) {
        const [face, ...others] = await facesV3(token, id);
        expect(others).toEqual([]);
        expect(face?.sourceType).toBe('machine-learning');
        const truth = await portrait(person, variant === 2 && person === 'cy' ? 3 : variant);
        expect([face?.imageWidth, face?.imageHeight]).toEqual([truth.width, truth.height]);
        expect(iou(boxOf(face as FaceV3), truth.face)).toBeGreaterThan(0.5);
        owners.add(face?.person?.id ?? '');
      }
      expect(owners.size).toBe(1);
    }
    const anaPerson = (await facesV3(token, ana[0] as string))[0]?.person?.id as string;
    const cyPerson = (await facesV3(token, cy[0] as string))[0]?.person?.id as string;
    expect(anaPerson).not.toBe(cyPerson);
    expect(await statistics(token, anaPerson)).toBe(3);
    // Each new person has a thumbnail cropped from their best face.
    for (const person of people.people) {
      expect(person.name).toBe('');
      expect(person.thumbnailPath).not.toBe('');
      const thumbnail = await invoke(getPersonThumbnail, {
        path: `/api/person/${person.id}/thumbnail`,
        pathParameters: { id: person.id },
        headers: bearer(token),
      });
      expect(thumbnail.status).toBe(200);
      expect(thumbnail.headers['content-type']).toBe('image/jpeg');
    }

    // The group photo: Ana and Cy are recognised where they stand; Bea, seen once, is no one yet.
    const group = await uploadPhoto(token, readFileSync(groupPhotoPath));
    const all = await facesV3(token, group);
    const faces = all.filter((face) => face.person);
    expect(faces.map((face) => face.person?.id).sort()).toEqual([anaPerson, cyPerson].sort());
    const [bea, ...more] = all.filter((face) => !face.person);
    expect(more).toEqual([]);
    expect(iou(boxOf(bea as FaceV3), groupFaces.bea)).toBeGreaterThan(0.5);
    for (const face of faces) {
      const truth = face.person?.id === anaPerson ? groupFaces.ana : groupFaces.cy;
      expect([face.imageWidth, face.imageHeight]).toEqual([1920, 1280]);
      expect(iou(boxOf(face), truth)).toBeGreaterThan(0.5);
    }
    expect(await statistics(token, cyPerson)).toBe(4);
    // v1.100's faces route shows them too; v3's people list has the same two.
    const v1 = await invoke(getFacesV1, { path: '/api/face', query: { id: group }, headers: bearer(token) });
    expect(v1.body).toHaveLength(3);
    expect((await peopleV3(token)).people.map((person) => person.id).sort()).toEqual([anaPerson, cyPerson].sort());

    // The sync stream carries the new people and faces.
    const synced = await syncStream(token, { types: ['PeopleV1', 'AssetFacesV2'] });
    expect(
      synced.lines
        .filter((line) => line.type === 'PersonV1')
        .map((line) => line.data.id)
        .sort(),
    ).toEqual([anaPerson, cyPerson].sort());
    // Every face (Bea's without a person too), once each.
    const syncedFaces = synced.lines.filter((line) => line.type === 'AssetFaceV2');
    expect(syncedFaces).toHaveLength(9);
    expect(syncedFaces.find((line) => line.data.assetId === group)?.data).toMatchObject({ sourceType: 'machine-learning' });

    // Reassign and merge work on detected people as on any: one of Cy's faces moved to Ana, then Cy merged into Ana.
    const moved = (await facesV3(token, cy[1] as string))[0] as FaceV3;
    const reassigned = await invoke(reassignFaceById, {
      method: 'PUT',
      path: `/api/faces/${anaPerson}`,
      pathParameters: { id: anaPerson },
      headers: bearer(token),
      body: { id: moved.id },
    });
    expect(reassigned.status, JSON.stringify(reassigned.body)).toBe(200);
    expect([await statistics(token, anaPerson), await statistics(token, cyPerson)]).toEqual([5, 3]);
    const merged = await invoke(mergePerson, {
      method: 'POST',
      path: `/api/person/${anaPerson}/merge`,
      pathParameters: { id: anaPerson },
      headers: bearer(token),
      body: { ids: [cyPerson] },
    });
    expect(merged.status, JSON.stringify(merged.body)).toBe(201);
    expect(await statistics(token, anaPerson)).toBe(7);
    const cyFace = (await facesV3(token, cy[0] as string))[0] as FaceV3;
    expect(cyFace.person?.id).toBe(anaPerson);
  });

  it('makes one person, never two, when photos of one new face are recognised at the same time', async () => {
    await setRecognition({ minFaces: 2 });
    try {
      for (const person of ['ana', 'cy'] as const) {
        const user = await freshUser(accounts.admin.accessToken, `Together${person}${Date.now()}`);
        const token = user.accessToken;
        const ids = [
          await uploadPhoto(token, (await portrait(person, 0)).data, { job: false }),
          await uploadPhoto(token, (await portrait(person, 1)).data, { job: false }),
          await uploadPhoto(token, (await portrait(person, 3)).data, { job: false }),
        ];
        await Promise.all(ids.map((id) => runJob(token, id)));
        const people = await peopleV1(token);
        expect(people.total).toBe(1);
        const owners = new Set<string>();
        for (const id of ids) for (const face of await facesV3(token, id)) owners.add(face.person?.id ?? 'none');
        expect([...owners]).toEqual([people.people[0]?.id]);
        expect(await statistics(token, people.people[0]?.id as string)).toBe(3);
      }
    } finally {
      await setRecognition({ minFaces: 3 });
    }
  });

  // Faces detected now have their items (without a person) from detection on; faces detected
  // before that have none until a decision makes them: both race the same way.
  for (const items of [true, false])
    it(`lets one of two decisions about the same faces win, never both (the other reads again and finds them taken)${items ? '' : ', for faces without items'}`, async () => {
      const user = await freshUser(accounts.admin.accessToken, `Race${items}${Date.now()}`);
      const token = user.accessToken;
      const ids = [
        await uploadPhoto(token, (await portrait('ana', 0)).data, { job: false }),
        await uploadPhoto(token, (await portrait('ana', 2)).data, { job: false }),
      ];
      const assets = await assetRepo.getMany(ids);
      // One face each, with descriptors 0.1 apart: both without a person.
      const descriptor = (shift: number) => Float32Array.from({ length: descriptorLength }, (_, i) => (i === 0 ? shift : 0.05));
      const faces = assets.map((asset) => ({ id: randomUUID(), assetId: asset.id, x1: 10, y1: 10, x2: 50, y2: 60, score: 0.99 }));
      const records = faces.map((face) => ({
        id: face.id,
        assetId: face.assetId,
        personId: null,
        ownerId: user.id,
        imageWidth: 100,
        imageHeight: 100,
        boundingBoxX1: 10,
        boundingBoxY1: 10,
        boundingBoxX2: 50,
        boundingBoxY2: 60,
        index: 0,
        sourceType: 'machine-learning' as const,
      }));
      for (const [n, asset] of assets.entries())
        expect(
          await faceIndexRepo.addEntry(
            asset,
            { width: 100, height: 100 },
            [faces[n] as (typeof faces)[number]],
            encodeDescriptors([descriptor(n * 0.1)]),
            items ? { asset, faces: [records[n] as (typeof records)[number]] } : undefined,
          ),
        ).toEqual({ ok: true, value: undefined });
      const index = await faceIndexRepo.read(user.id, decodeDescriptors);
      expect(index.faces.map((face) => face.id)).toEqual(faces.map((face) => face.id));
      // The assets as a decision reads them: with their faces' ids when the faces have items.
      const read = await assetRepo.getMany(ids);
      const both = index.faces.map((face, n) => ({
        face,
        asset: read[n] as (typeof read)[number],
        index: 0,
        item: items ? records[n] : undefined,
      }));
      // Two jobs decided at once that these faces found a new person: one transaction wins.
      const outcomes = (
        await Promise.all([
          faceIndexRepo.recordRecognition({ ownerId: user.id, newPerson: { faceAssetId: ids[0] as string }, faces: both }),
          faceIndexRepo.recordRecognition({ ownerId: user.id, newPerson: { faceAssetId: ids[1] as string }, faces: both }),
        ])
      ).map((outcome) => (outcome.ok ? outcome.value : undefined));
      expect(outcomes.filter((outcome) => outcome !== undefined)).toHaveLength(1);
      const people = await peopleV1(token);
      expect(people.people.map((person) => person.id)).toEqual(outcomes.filter((outcome) => outcome !== undefined));
      // The loser decides again: its face already shows the person.
      const ml = {
        enabled: true,
        facialRecognition: { enabled: true, minScore: 0.7, maxDistance: 0.5, minFaces: 2, modelName: 'buffalo_l' },
      };
      expect(await recognizeFace(user.id, faces[1]?.id as string, ml as never)).toEqual({
        kind: 'assigned',
        personId: people.people[0]?.id,
      });
      expect(await statistics(token, people.people[0]?.id as string)).toBe(2);
      for (const id of ids) expect((await facesV3(token, id)).map((face) => face.person?.id)).toEqual([people.people[0]?.id]);
    });

  it('never lets a trash that read a photo before a face was recognised on it leave that face’s copy of its status behind', async () => {
    const user = await freshUser(accounts.admin.accessToken, `Trash${Date.now()}`);
    const token = user.accessToken;
    const id = await uploadPhoto(token, (await portrait('cy', 0)).data, { job: false });
    const read = await assetRepo.getWithFaces(id);
    // A face recognised on it after the trash read it…
    const face = { id: randomUUID(), assetId: id, x1: 10, y1: 10, x2: 50, y2: 60, score: 0.99 };
    const [asset] = await assetRepo.getMany([id]);
    await faceIndexRepo.addEntry(
      asset as NonNullable<typeof asset>,
      { width: 100, height: 100 },
      [face],
      encodeDescriptors([new Float32Array(descriptorLength)]),
    );
    const [fresh] = await assetRepo.getMany([id]);
    const [indexed] = (await faceIndexRepo.read(user.id, decodeDescriptors)).faces;
    expect(
      await faceIndexRepo.recordRecognition({
        ownerId: user.id,
        newPerson: { faceAssetId: id },
        faces: [{ face: indexed as NonNullable<typeof indexed>, asset: fresh as NonNullable<typeof fresh>, index: 0 }],
      }),
    ).toMatchObject({ ok: true });
    // …cancels the trash (it reads the photo again and copies its status to every face it has).
    await expect(
      assetRepo.update(read?.asset as NonNullable<typeof read>['asset'], read?.faces ?? [], { deletedAt: new Date().toISOString() }),
    ).resolves.toEqual({ ok: false, reason: 'changed' });
  });

  it('recognises the faces still without anyone again when the facialRecognition job starts, with the settings as they are now', async () => {
    const user = await freshUser(accounts.admin.accessToken, `Again${Date.now()}`);
    const token = user.accessToken;
    const ids = [await portraitOf(token, 'cy', 0), await portraitOf(token, 'cy', 1)];
    // Two agree, three are needed: no one yet.
    expect((await peopleV1(token)).total).toBe(0);
    await setRecognition({ minFaces: 2 });
    try {
      await startJob('facialRecognition', false);
      const people = await peopleV1(token);
      expect(people.total).toBe(1);
      for (const id of ids) expect((await facesV3(token, id)).map((face) => face.person?.id)).toEqual([people.people[0]?.id]);
      expect(people.people[0]?.thumbnailPath).not.toBe('');
    } finally {
      await setRecognition({ minFaces: 3 });
    }
  });

  it('counts a file’s region and the face detected over it as one face, whose person attracts look-alikes', async () => {
    const user = await freshUser(accounts.admin.accessToken, `Region${Date.now()}`);
    const token = user.accessToken;
    const { makeSidecar } = await import('../support/photos.ts');
    const shot = await portrait('bea', 0);
    // A photo manager named her: an XMP region (its corner and size as fractions, as the helper writes them) over her face.
    const region = {
      name: 'Bea',
      x: shot.face.x1 / shot.width,
      y: shot.face.y1 / shot.height,
      w: (shot.face.x2 - shot.face.x1) / shot.width,
      h: (shot.face.y2 - shot.face.y1) / shot.height,
    };
    const reply = await upload(token, {
      data: shot.data,
      fileName: 'bea.jpg',
      fields: cliFields('bea.jpg', shot.data.length),
      sidecar: makeSidecar({ mwgFaces: [region], width: shot.width, height: shot.height }),
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const named = reply.body.id as string;
    await runJob(token, named);
    const faces = await facesV3(token, named);
    expect(faces.map((face) => [face.sourceType, face.person?.name])).toEqual([['exif', 'Bea']]);
    // One more photo of her: it joins the named person at once (joining needs no minFaces).
    const next = await portraitOf(token, 'bea', 2);
    expect((await facesV3(token, next)).map((face) => face.person?.name)).toEqual(['Bea']);
    expect((await peopleV1(token)).total).toBe(1);
  });
});

describe('the detector’s score (minScore)', () => {
  it('finds a face this detector scores under buffalo_l’s 0.7 with its own default minScore, 0.5; at 0.7 it would be lost', async () => {
    // Bea's second portrait (mirrored, a wider crop): SSD-MobileNetV1 scores her face 0.62.
    const shot = await portrait('bea', 1);
    const token = (await freshUser(accounts.admin.accessToken, `Score${Date.now()}`)).accessToken;
    const [face, ...others] = await facesV3(token, await uploadPhoto(token, shot.data));
    expect(others).toEqual([]);
    expect(iou(boxOf(face as FaceV3), shot.face)).toBeGreaterThan(0.5);
    await setRecognition({ minScore: 0.7 });
    try {
      const strict = (await freshUser(accounts.admin.accessToken, `Strict${Date.now()}`)).accessToken;
      expect(await facesV3(strict, await uploadPhoto(strict, shot.data))).toEqual([]);
    } finally {
      await setRecognition({ minScore: 0.5 });
    }
  });
});

describe('faces a person can name (Immich lists every face of a photo, `person: null` for those no one is recognised in)', () => {
  it('lists a group photo’s faces without a person on both generations, and names one as the web apps do: the person, the photo’s people, the sync stream', async () => {
    const user = await freshUser(accounts.admin.accessToken, `Named${Date.now()}`);
    const token = user.accessToken;
    // Three strangers, each seen once: minFaces (3) makes no one of them a person.
    const group = await uploadPhoto(token, readFileSync(groupPhotoPath));
    const faces = await facesV3(token, group);
    expect(faces).toHaveLength(3);
    expect(faces.map((face) => [face.person, face.sourceType, face.imageWidth, face.imageHeight])).toEqual(
      Array.from({ length: 3 }, () => [null, 'machine-learning', 1920, 1280]),
    );
    const on = (truth: Box) => faces.find((face) => iou(boxOf(face), truth) > 0.5) as FaceV3;
    const [ana, bea, cy] = [on(groupFaces.ana), on(groupFaces.bea), on(groupFaces.cy)];
    expect(new Set([ana?.id, bea?.id, cy?.id]).size).toBe(3);
    // v1.100's GET /face lists the same faces, in v1.100's shape.
    const v1 = await invoke(getFacesV1, { path: '/api/face', query: { id: group }, headers: bearer(token) });
    expect(v1.body.map((face: { id: string }) => face.id)).toEqual(faces.map((face) => face.id));
    expect(v1.body.find((face: { id: string }) => face.id === bea.id)).toEqual({
      id: bea.id,
      imageWidth: 1920,
      imageHeight: 1280,
      boundingBoxX1: bea.boundingBoxX1,
      boundingBoxY1: bea.boundingBoxY1,
      boundingBoxX2: bea.boundingBoxX2,
      boundingBoxY2: bea.boundingBoxY2,
      person: null,
    });
    // No one yet: no people, none on the photo; the apps get the faces, without a person.
    expect((await peopleV3(token)).total).toBe(0);
    expect(
      (await invoke(getAssetInfoV3, { path: `/api/assets/${group}`, pathParameters: { id: group }, headers: bearer(token) })).body.people,
    ).toEqual([]);
    const before = await syncStream(token, { types: ['AssetFacesV2', 'PeopleV1'] });
    expect(before.lines.filter((line) => line.type === 'AssetFaceV2').map((line) => [line.data.id, line.data.personId])).toEqual(
      expect.arrayContaining(faces.map((face) => [face.id, null])),
    );
    expect(before.lines.filter((line) => line.type === 'PersonV1')).toEqual([]);

    // v3's web app names a face: a new person (POST /people {}), then the face given to them (PUT /faces/:personId {id}).
    const created = await invoke(createPersonV3, { method: 'POST', path: '/api/people', headers: bearer(token), body: {} });
    expect(created.status).toBe(201);
    const bea3 = created.body.id as string;
    const named = await invoke(reassignFaceById, {
      method: 'PUT',
      path: `/api/faces/${bea3}`,
      pathParameters: { id: bea3 },
      headers: bearer(token),
      body: { id: bea.id },
    });
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    expect(named.body.id).toBe(bea3);
    const renamed = await invoke(updatePersonV3, {
      method: 'PUT',
      path: `/api/people/${bea3}`,
      pathParameters: { id: bea3 },
      headers: bearer(token),
      body: { name: 'Bea' },
    });
    expect(renamed.status).toBe(200);
    // Her feature photo is the group photo; the media function crops her thumbnail from it.
    await settle();
    const after = await facesV3(token, group);
    expect(after.map((face) => [face.id, face.person?.name ?? null])).toEqual(
      faces.map((face) => [face.id, face.id === bea.id ? 'Bea' : null]),
    );
    const people = await peopleV3(token);
    expect(people.people.map((person) => [person.id, person.name])).toEqual([[bea3, 'Bea']]);
    expect((await peopleV1(token)).people.map((person) => [person.id, person.thumbnailPath !== ''])).toEqual([[bea3, true]]);
    expect(await statistics(token, bea3)).toBe(1);
    const info3 = await invoke(getAssetInfoV3, { path: `/api/assets/${group}`, pathParameters: { id: group }, headers: bearer(token) });
    expect(info3.body.people.map((person: { id: string; name: string }) => [person.id, person.name])).toEqual([[bea3, 'Bea']]);
    const info1 = await invoke(getAssetInfoV1, { path: `/api/asset/${group}`, pathParameters: { id: group }, headers: bearer(token) });
    expect(info1.body.people).toEqual([
      expect.objectContaining({ id: bea3, name: 'Bea', faces: [expect.objectContaining({ id: bea.id })] }),
    ]);
    // The apps learn of the person and of the face now showing her (from where they acknowledged).
    const synced = await syncStream(token, { types: ['AssetFacesV2', 'PeopleV1'] });
    expect(synced.lines.filter((line) => line.type === 'PersonV1').map((line) => [line.data.id, line.data.name])).toEqual([[bea3, 'Bea']]);
    const syncedFaces = new Map(
      synced.lines.filter((line) => line.type === 'AssetFaceV2').map((line) => [line.data.id, line.data.personId]),
    );
    expect(syncedFaces.get(bea.id)).toBe(bea3);
    expect(syncedFaces.get(ana.id)).toBeNull();

    // v1.100's web app names another with a person of a name (POST /person, then PUT /face/:personId).
    const ana1 = await invoke(createPersonV1, { method: 'POST', path: '/api/person', headers: bearer(token), body: { name: 'Ana' } });
    expect(ana1.status).toBe(201);
    const given = await invoke(reassignFaceByIdV1, {
      method: 'PUT',
      path: `/api/face/${ana1.body.id}`,
      pathParameters: { id: ana1.body.id },
      headers: bearer(token),
      body: { id: ana.id },
    });
    expect(given.status, JSON.stringify(given.body)).toBe(200);
    expect(given.body).toMatchObject({ id: ana1.body.id, name: 'Ana' });
    expect((await facesV3(token, group)).map((face) => face.person?.name ?? null)).toEqual(
      faces.map((face) => (face.id === bea.id ? 'Bea' : face.id === ana.id ? 'Ana' : null)),
    );

    // A named face draws her look-alikes: her next photo joins her at once (joining needs no minFaces).
    const next = await portraitOf(token, 'bea', 2);
    expect((await facesV3(token, next)).map((face) => face.person?.id)).toEqual([bea3]);
    expect(await statistics(token, bea3)).toBe(2);
    // The one still without a person can be deleted like any face.
    const deleted = await invoke(deleteFace, {
      method: 'DELETE',
      path: `/api/faces/${cy.id}`,
      pathParameters: { id: cy.id },
      headers: bearer(token),
      body: { force: false },
    });
    expect(deleted.status).toBe(204);
    expect((await facesV3(token, group)).map((face) => face.id)).toEqual(faces.filter((face) => face.id !== cy.id).map((face) => face.id));
  });
});
