import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v1 from '@immich/sdk';
import * as v3 from '@immich/sdk-v3';
import { beforeAll, describe, expect, it } from 'vitest';
import { immichCli } from '../support/immich-cli.ts';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { groupFaces, groupPhotoPath, iou, portrait } from '../support/people-photos.ts';
import { adminWithApiKey, type SdkUser } from '../support/sdk.ts';
import { useServer } from '../support/server.ts';
import { pollUntil } from '../support/waits.ts';

/**
 * People from the photos themselves (docs/faces.md), through the server (local, or the synthesized
 * stack's bundles: the media function loads the face model shipped beside its bundle): a folder
 * of photos of people, with no face regions, uploaded by today's `immich` CLI, becomes people in
 * both generations' people routes, with their faces where they are.
 */
describe('faces found by the media function, through the immich CLI 3.2.2 and both SDKs', () => {
  const server = useServer();
  let user: SdkUser;

  beforeAll(async () => {
    const admin = await adminWithApiKey(server.baseUrl, 'faces@immich.cloud');
    // Not about OCR or duplicates: off, as each photo's cost (test/support/ml-tasks.ts).
    await turnOffMlTasks(admin, ['ocr', 'duplicateDetection']);
    const email = `people${Date.now()}@immich.cloud`;
    await v1.createUser({ createUserDto: { email, password: 'password', name: 'People' } }, admin);
    const { accessToken } = await v1.login({ loginCredentialDto: { email, password: 'password' } }, { baseUrl: server.baseUrl });
    const session = { baseUrl: server.baseUrl, headers: { Authorization: `Bearer ${accessToken}` } };
    const { secret } = await v3.createApiKey({ apiKeyCreateDto: { name: 'cli', permissions: [v3.Permission.All] } }, session);
    user = { baseUrl: server.baseUrl, headers: { 'x-api-key': secret } };
    expect((await v3.getServerFeatures(user)).facialRecognition).toBe(true);
    expect((await v1.getServerFeatures(user)).facialRecognition).toBe(true);
  });

  it('turns a folder of photos of two women into two people, recognises them in a group photo, and lets the third be named on both generations', async () => {
    const root = mkdtempSync(join(tmpdir(), 'faces-'));
    const folder = join(root, 'camera-roll');
    mkdirSync(folder);
    for (const [person, variants] of [
      ['ana', [0, 1, 2]],
      ['cy', [0, 1, 3]],
    ] as const)
      for (const variant of variants) writeFileSync(join(folder, `${person}-${variant}.jpg`), (await portrait(person, variant)).data);
    // Bea: one portrait, and in the group photo; two faces, too few to become a person on their own (minFaces 3).
    writeFileSync(join(folder, 'bea-0.jpg'), (await portrait('bea', 0)).data);
    copyFileSync(groupPhotoPath, join(folder, 'group.jpg'));
    const config = join(root, 'config');
    await immichCli(config, 'login', server.baseUrl, String(user.headers['x-api-key']));
    const uploaded = await immichCli(config, 'upload', folder);
    expect(uploaded.stdout).toMatch(/Successfully uploaded 8 new assets/);

    // The media function runs after each upload's answer: wait for the group photo's two faces.
    const assets = await v3.searchAssets({ metadataSearchDto: { originalFileName: 'group' } }, user);
    const group = assets.assets.items.find((asset) => asset.originalFileName === 'group.jpg');
    expect(group).toBeDefined();
    const faces = await pollUntil(
      () => v3.getFaces({ id: group?.id ?? '' }, user),
      (faces) => faces.filter((face) => face.person).length >= 2,
    );
    // Two people, in both generations' lists: no XMP region anywhere.
    const people = await v3.getAllPeople({ withHidden: true }, user);
    expect(people.total).toBe(2);
    const old = await v1.getAllPeople({ withHidden: true }, user);
    expect(old.people.map((person) => person.id).sort()).toEqual(people.people.map((person) => person.id).sort());
    for (const person of people.people) {
      expect((await v3.getPersonStatistics({ id: person.id }, user)).assets).toBe(4);
      expect((await v1.getPersonStatistics({ id: person.id }, user)).assets).toBe(4);
    }
    // The group photo's faces: Ana's and Cy's boxes, in its pixels, each a different person; Bea's, no one yet (listed, as Immich lists it).
    expect(faces).toHaveLength(3);
    const boxOf = (face: v3.AssetFaceResponseDto) => ({
      x1: face.boundingBoxX1,
      y1: face.boundingBoxY1,
      x2: face.boundingBoxX2,
      y2: face.boundingBoxY2,
    });
    const known = faces.filter((face) => face.person);
    expect(Math.max(...known.map((face) => iou(boxOf(face), groupFaces.ana)))).toBeGreaterThan(0.5);
    expect(Math.max(...known.map((face) => iou(boxOf(face), groupFaces.cy)))).toBeGreaterThan(0.5);
    expect(new Set(known.map((face) => face.person?.id)).size).toBe(2);
    const bea = faces.find((face) => !face.person) as v3.AssetFaceResponseDto;
    expect(iou(boxOf(bea), groupFaces.bea)).toBeGreaterThan(0.5);
    expect(faces.every((face) => face.sourceType === v3.SourceType.MachineLearning)).toBe(true);
    // Each person's thumbnail is a JPEG cropped from their face.
    for (const person of people.people) {
      const thumbnail = await v3.getPersonThumbnail({ id: person.id }, user);
      expect(thumbnail.type).toBe('image/jpeg');
      expect(thumbnail.size).toBeGreaterThan(1000);
    }

    // Bea's portrait: its face found, no one's yet (two faces of her, minFaces is 3).
    const portraitAsset = (await v3.searchAssets({ metadataSearchDto: { originalFileName: 'bea-0' } }, user)).assets.items[0];
    const portraitId = portraitAsset?.id ?? '';
    const portraitFaces = await pollUntil(
      () => v1.getFaces({ id: portraitId }, user),
      (faces) => faces.length > 0,
    );
    expect(portraitFaces.map((face) => face.person)).toEqual([null]);

    // Naming Bea as v3's web app does: a new person, the group photo's face given to her, then her name.
    const beaPerson = await v3.createPerson({ personCreateDto: {} }, user);
    expect((await v3.reassignFacesById({ id: beaPerson.id, faceDto: { id: bea.id } }, user)).id).toBe(beaPerson.id);
    await v3.updatePerson({ id: beaPerson.id, personUpdateDto: { name: 'Bea' } }, user);
    const groupAfter = await v3.getAssetInfo({ id: group?.id ?? '' }, user);
    expect(groupAfter.people?.map((person) => person.name).sort()).toEqual(['', '', 'Bea']);
    expect((await v3.getFaces({ id: group?.id ?? '' }, user)).find((face) => face.id === bea.id)?.person?.name).toBe('Bea');
    // Her portrait's face given to her through v1.100's SDK.
    const named = await v1.reassignFacesById({ id: beaPerson.id, faceDto: { id: portraitFaces[0]?.id ?? '' } }, user);
    expect(named).toMatchObject({ id: beaPerson.id, name: 'Bea' });
    const portraitAfter = await v1.getAssetInfo({ id: portraitId }, user);
    expect(portraitAfter.people?.map((person) => [person.name, person.faces.map((face) => face.id)])).toEqual([
      ['Bea', [portraitFaces[0]?.id]],
    ]);
    expect((await v1.getPersonStatistics({ id: beaPerson.id }, user)).assets).toBe(2);
    expect((await v1.getAllPeople({ withHidden: true }, user)).people.map((person) => person.name).sort()).toEqual(['', '', 'Bea']);
  });
});
