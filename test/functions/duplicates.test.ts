import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Vips from 'wasm-vips';
import { handler as sendJobCommand } from '#functions/job/send-job-command.ts';
import { handler as generateMedia } from '#functions/media/generate-media.ts';
import { handler as getAssetInfoV3 } from '#functions/v3/asset/get-asset-info.ts';
import { handler as updateAssetV3 } from '#functions/v3/asset/update-asset.ts';
import { handler as deleteDuplicate } from '#functions/v3/duplicate/delete-duplicate.ts';
import { handler as deleteDuplicates } from '#functions/v3/duplicate/delete-duplicates.ts';
import { handler as getAssetDuplicates } from '#functions/v3/duplicate/get-asset-duplicates.ts';
import { handler as resolveDuplicates } from '#functions/v3/duplicate/resolve-duplicates.ts';
import { handler as createTag } from '#functions/v3/tag/create-tag.ts';
import { handler as tagAssets } from '#functions/v3/tag/tag-assets.ts';
import * as duplicateRepo from '#shared/db/duplicate.repository.ts';
import * as vectorIndexRepo from '#shared/db/vector-index.repository.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addToAlbum, albumInfo, assetInfo, createAlbum } from '../support/library.ts';
import { changeConfig, mediaJobsInProcess, objectCreated } from '../support/media.ts';
import { startMlService } from '../support/ml-service.ts';
import { makeJpeg } from '../support/photos.ts';
import { makeScene, shootScene } from '../support/scenes.ts';
import { cliFields, upload } from '../support/uploads.ts';

/**
 * Duplicates without machine learning (docs/immich-compatibility.md, "Duplicates"): the media
 * function hashes each upload's preview and groups it with the owner's copies of the same photo by
 * Immich's union rule; v3's routes list, dismiss and resolve the groups.
 */
let accounts: Awaited<ReturnType<typeof setupAccounts>>;
let vips: Awaited<ReturnType<typeof Vips>>;
const media = mediaJobsInProcess();
const setMachineLearning = (change: (ml: Record<string, any>) => Record<string, any>) =>
  changeConfig(accounts.admin.accessToken, (config) => ({ ...config, machineLearning: change(config.machineLearning) }));
const setDetection = (enabled: boolean) =>
  setMachineLearning((ml) => ({ ...ml, duplicateDetection: { ...ml.duplicateDetection, enabled } }));

beforeAll(async () => {
  accounts = await setupAccounts();
  vips = await Vips();
  media.start();
  // Faces and OCR are not what these tests look at (their models are slow on a loaded machine).
  await setMachineLearning((ml) => ({
    ...ml,
    facialRecognition: { ...ml.facialRecognition, enabled: false },
    ocr: { ...ml.ocr, enabled: false },
  }));
});
afterAll(() => media.stop());

const shot = (seed: number, options: Parameters<typeof shootScene>[1] = {}) =>
  shootScene(makeScene(seed), { width: 800, height: 600, grainSeed: seed, ...options });

/** A photo's copies that are the same photo: smaller, recompressed, as WebP, 4 px cropped off each side. */
const copies = (bytes: Buffer) => {
  const image = vips.Image.newFromBuffer(bytes);
  return {
    half: Buffer.from(image.resize(0.5).jpegsaveBuffer({ Q: 90 })),
    q40: Buffer.from(image.jpegsaveBuffer({ Q: 40 })),
    webp: Buffer.from(image.webpsaveBuffer({ Q: 70 })),
    crop: Buffer.from(image.crop(4, 4, image.width - 8, image.height - 8).jpegsaveBuffer({ Q: 90 })),
  };
};

let uploads = 0;
/** Uploads a file through the CLI's route, then runs the media function on it as the bucket's event does. */
const uploadPhoto = async (token: string, data: Buffer, extension = 'jpg', date?: Date): Promise<string> => {
  const name = `dupe-${++uploads}.${extension}`;
  const reply = await upload(token, { data, fileName: name, fields: cliFields(name, data.length, date) });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const id = reply.body.id as string;
  const { body } = await assetInfo(token, id);
  expect((await objectCreated(body.originalPath)).outcomes).toEqual({ [body.originalPath]: 'made' });
  return id;
};

interface Group {
  duplicateId: string;
  assets: { id: string; duplicateId: string | null; exifInfo?: { fileSizeInByte: number | null }; tags?: { id: string }[] }[];
  suggestedKeepAssetIds: string[];
}
const groupsOf = async (token: string): Promise<Group[]> => {
  const reply = await invoke(getAssetDuplicates, { path: '/api/duplicates', headers: bearer(token) });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};
const idsOf = (group: Group | undefined) => (group?.assets ?? []).map((asset) => asset.id).sort();
const assetV3 = async (token: string, id: string) =>
  (await invoke(getAssetInfoV3, { path: `/api/assets/${id}`, pathParameters: { id }, headers: bearer(token) })).body;
const dismiss = (token: string, id: string) =>
  invoke(deleteDuplicate, { method: 'DELETE', path: `/api/duplicates/${id}`, pathParameters: { id }, headers: bearer(token) });
const dismissMany = (token: string, body: unknown) =>
  invoke(deleteDuplicates, { method: 'DELETE', path: '/api/duplicates', headers: bearer(token), body });
const resolve = (token: string, body: unknown) =>
  invoke(resolveDuplicates, { method: 'POST', path: '/api/duplicates/resolve', headers: bearer(token), body });
const startDetection = async (force: boolean) => {
  const reply = await invoke(sendJobCommand, {
    method: 'PUT',
    path: '/api/jobs/duplicateDetection',
    pathParameters: { name: 'duplicateDetection' },
    headers: bearer(accounts.admin.accessToken),
    body: { command: 'start', force },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  await media.settle();
};

/** Uploads a photo and its copies; the ids, the original's first. */
const photoWithCopies = async (token: string, seed: number): Promise<string[]> => {
  const photo = shot(seed);
  const made = copies(photo);
  return [
    await uploadPhoto(token, photo),
    await uploadPhoto(token, made.half),
    await uploadPhoto(token, made.q40),
    await uploadPhoto(token, made.webp, 'webp'),
    await uploadPhoto(token, made.crop),
  ];
};

describe('duplicate detection in the media function', () => {
  it('groups a photo with its resized, recompressed, WebP and cropped copies, and nothing else', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'DupeCopies');
    const ids = await photoWithCopies(user.accessToken, 11);
    const other = await uploadPhoto(user.accessToken, shot(12));
    // Another shot of the same scene, 10% aside: not the same photo.
    const aside = await uploadPhoto(user.accessToken, shot(11, { shiftX: 0.1 }));
    const groups = await groupsOf(user.accessToken);
    expect(groups).toHaveLength(1);
    const [group] = groups;
    expect(idsOf(group)).toEqual([...ids].sort());
    for (const asset of group?.assets ?? []) expect(asset.duplicateId).toBe(group?.duplicateId);
    // Immich's suggestion: the largest file.
    const largest = [...(group?.assets ?? [])].sort((a, b) => (b.exifInfo?.fileSizeInByte ?? 0) - (a.exifInfo?.fileSizeInByte ?? 0))[0];
    expect(group?.suggestedKeepAssetIds).toEqual([largest?.id]);
    // The asset's own answer carries its group, the others none.
    expect((await assetV3(user.accessToken, ids[2] as string)).duplicateId).toBe(group?.duplicateId);
    expect((await assetV3(user.accessToken, other)).duplicateId).toBeNull();
    expect((await assetV3(user.accessToken, aside)).duplicateId).toBeNull();
    // The group's items agree with the assets.
    const stored = await duplicateRepo.getGroup(user.userId, group?.duplicateId as string);
    expect({ count: stored.count, members: stored.assetIds.sort() }).toEqual({ count: 5, members: [...ids].sort() });
  });

  it('leaves flat photos (one colour) out: they have no hash to tell copies apart by', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'DupeFlat');
    const ids = [
      await uploadPhoto(user.accessToken, makeJpeg({ width: 640, height: 480, color: [10, 10, 10] })),
      await uploadPhoto(user.accessToken, makeJpeg({ width: 640, height: 480, color: [10, 10, 10] })),
    ];
    expect(await groupsOf(user.accessToken)).toEqual([]);
    for (const id of ids) expect((await assetV3(user.accessToken, id)).duplicateId).toBeNull();
  });

  it('never groups or shows another user’s copies', async () => {
    const alice = await freshUser(accounts.admin.accessToken, 'DupeAlice');
    const bob = await freshUser(accounts.admin.accessToken, 'DupeBob');
    const photo = shot(21);
    const mine = [await uploadPhoto(alice.accessToken, photo), await uploadPhoto(alice.accessToken, copies(photo).q40)];
    const theirs = await uploadPhoto(bob.accessToken, copies(photo).half);
    const [group] = await groupsOf(alice.accessToken);
    expect(idsOf(group)).toEqual([...mine].sort());
    expect(await groupsOf(bob.accessToken)).toEqual([]);
    expect((await assetV3(bob.accessToken, theirs)).duplicateId).toBeNull();
    // Bob can neither dismiss nor resolve Alice's group.
    const id = group?.duplicateId as string;
    expect((await dismiss(bob.accessToken, id)).status).toBe(400);
    expect((await dismissMany(bob.accessToken, { ids: [id] })).status).toBe(400);
    const resolved = await resolve(bob.accessToken, { groups: [{ duplicateId: id, keepAssetIds: [mine[0]], trashAssetIds: [mine[1]] }] });
    expect(resolved.status).toBe(400);
    expect(resolved.body.message).toBe('Not found or no duplicate.delete access');
    expect(idsOf((await groupsOf(alice.accessToken))[0])).toEqual([...mine].sort());
  });

  it('keeps a dismissal through a "missing" run; an "all" run finds the group again', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'DupeDismiss');
    const photo = shot(31);
    const ids = [await uploadPhoto(user.accessToken, photo), await uploadPhoto(user.accessToken, copies(photo).crop)];
    const second = shot(32);
    const others = [await uploadPhoto(user.accessToken, second), await uploadPhoto(user.accessToken, copies(second).webp, 'webp')];
    const groups = await groupsOf(user.accessToken);
    expect(groups.map(idsOf).sort()).toEqual([[...ids].sort(), [...others].sort()].sort());
    const first = groups.find((group) => idsOf(group).includes(ids[0] as string))?.duplicateId as string;
    const next = groups.find((group) => idsOf(group).includes(others[0] as string))?.duplicateId as string;
    expect((await dismiss(user.accessToken, first)).status).toBe(204);
    expect((await dismissMany(user.accessToken, { ids: [next] })).status).toBe(204);
    expect(await groupsOf(user.accessToken)).toEqual([]);
    expect((await assetV3(user.accessToken, ids[0] as string)).duplicateId).toBeNull();
    // Dismissed groups are gone: dismissing again is an unknown group.
    expect((await dismiss(user.accessToken, first)).status).toBe(400);
    await startDetection(false);
    expect(await groupsOf(user.accessToken)).toEqual([]);
    await startDetection(true);
    expect((await groupsOf(user.accessToken)).map(idsOf).sort()).toEqual([[...ids].sort(), [...others].sort()].sort());
  });

  it('is switched off by duplicateDetection.enabled alone, and CLIP neighbours join the hashes', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'DupeClip');
    await setDetection(false);
    let ids: string[];
    try {
      const photo = shot(41);
      ids = [await uploadPhoto(user.accessToken, photo), await uploadPhoto(user.accessToken, copies(photo).half)];
      expect(await groupsOf(user.accessToken)).toEqual([]);
    } finally {
      await setDetection(true);
    }
    // A different photo whose CLIP embedding is (nearly) the first one's: grouped by CLIP, not by its hash.
    const different = await uploadPhoto(user.accessToken, shot(42));
    expect(await groupsOf(user.accessToken)).toEqual([]);
    const model = 'ViT-B-32__openai';
    const vector = (scale: number) => new Uint8Array(Float16Array.from({ length: 512 }, (_, i) => (Math.sin(i) + 1.5) * scale).buffer);
    await vectorIndexRepo.appendVectors(user.userId, 'clip', model, [
      { assetId: ids[0] as string, vector: vector(1) },
      { assetId: different, vector: vector(2) },
    ]);
    await startDetection(false);
    const [group] = await groupsOf(user.accessToken);
    expect(idsOf(group)).toEqual([...ids, different].sort());
  });
});

describe('POST /duplicates/resolve', () => {
  it('merges favourite, description, albums and tags into the asset kept and trashes the rest', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'DupeResolve');
    const token = user.accessToken;
    const photo = shot(51);
    // Taken one after the other: the group lists them in that order, and the descriptions merge in it.
    const [keep, favourite, tagged] = [
      await uploadPhoto(token, photo, 'jpg', new Date('2024-05-01T10:00:00.000Z')),
      await uploadPhoto(token, copies(photo).q40, 'jpg', new Date('2024-05-01T10:00:01.000Z')),
      await uploadPhoto(token, copies(photo).half, 'jpg', new Date('2024-05-01T10:00:02.000Z')),
    ] as [string, string, string];
    const edit = (id: string, body: Record<string, unknown>) =>
      invoke(updateAssetV3, { method: 'PUT', path: `/api/assets/${id}`, pathParameters: { id }, headers: bearer(token), body });
    expect((await edit(keep, { description: 'Sunset\nBeach day' })).status).toBe(200);
    expect((await edit(favourite, { isFavorite: true, description: 'Beach day\nWith Ana' })).status).toBe(200);
    const album = await createAlbum(token, { albumName: 'Holidays' });
    expect((await addToAlbum(token, album.id, [favourite])).status).toBe(200);
    const tag = await invoke(createTag, { method: 'POST', path: '/api/tags', headers: bearer(token), body: { name: 'beach' } });
    expect(tag.status).toBe(201);
    const tagged1 = await invoke(tagAssets, {
      method: 'PUT',
      path: `/api/tags/${tag.body.id}/assets`,
      pathParameters: { id: tag.body.id },
      headers: bearer(token),
      body: { ids: [tagged] },
    });
    expect(tagged1.status).toBe(200);
    const [group] = await groupsOf(token);
    expect(idsOf(group)).toEqual([keep, favourite, tagged].sort());
    const duplicateId = group?.duplicateId as string;

    // Bad groups are answered per group, and change nothing.
    const bad = await resolve(token, {
      groups: [
        { duplicateId, keepAssetIds: [keep, favourite], trashAssetIds: [favourite, tagged] },
        { duplicateId, keepAssetIds: [keep], trashAssetIds: [favourite] },
      ],
    });
    expect(bad.status).toBe(200);
    expect(bad.body).toEqual([
      { id: duplicateId, success: false, error: 'validation', errorMessage: 'An asset cannot be in both keepAssetIds and trashAssetIds' },
      { id: duplicateId, success: false, error: 'validation', errorMessage: 'Every asset must be in either keepAssetIds or trashAssetIds' },
    ]);
    expect(idsOf((await groupsOf(token))[0])).toEqual([keep, favourite, tagged].sort());

    // Ids outside the group are ignored, as Immich does.
    const reply = await resolve(token, {
      groups: [{ duplicateId, keepAssetIds: [keep, randomUUID()], trashAssetIds: [favourite, tagged] }],
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([{ id: duplicateId, success: true }]);
    const kept = await assetV3(token, keep);
    expect(kept).toMatchObject({ isFavorite: true, isTrashed: false, duplicateId: null });
    expect(kept.exifInfo.description).toBe('Sunset\nBeach day\nWith Ana');
    expect(kept.tags.map((each: { id: string }) => each.id)).toEqual([tag.body.id]);
    // The keeper joined the album; the trashed copy no longer shows in it.
    expect((await albumInfo(token, album.id)).body.assets.map((asset: { id: string }) => asset.id)).toEqual([keep]);
    for (const id of [favourite, tagged]) expect(await assetV3(token, id)).toMatchObject({ isTrashed: true, duplicateId: null });
    expect(await groupsOf(token)).toEqual([]);
    // The group is gone: resolving it again is refused.
    expect((await resolve(token, { groups: [{ duplicateId, keepAssetIds: [keep], trashAssetIds: [] }] })).status).toBe(400);
  });

  it.each([
    ['no body', undefined],
    ['no groups', { groups: [] }],
    ['a group that is not an object', { groups: ['x'] }],
    ['a duplicateId that is not a UUID', { groups: [{ duplicateId: 'nope', keepAssetIds: [], trashAssetIds: [] }] }],
    ['asset ids that are not UUIDs', { groups: [{ duplicateId: randomUUID(), keepAssetIds: ['a'], trashAssetIds: [] }] }],
    ['no asset lists', { groups: [{ duplicateId: randomUUID() }] }],
    ['an unknown group', { groups: [{ duplicateId: randomUUID(), keepAssetIds: [], trashAssetIds: [] }] }],
  ])('answers %s with a 400', async (_name, body) => {
    const reply = await resolve(accounts.user1.accessToken, body);
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(typeof reply.body.message).toBe('string');
  });

  it('answers bad dismissals with a 400', async () => {
    const token = accounts.user1.accessToken;
    expect((await dismiss(token, 'not-a-uuid')).status).toBe(400);
    expect((await dismiss(token, randomUUID())).status).toBe(400);
    expect((await dismissMany(token, { ids: ['x'] })).status).toBe(400);
    expect((await dismissMany(token, {})).status).toBe(400);
  });
});

describe('concurrent detection', () => {
  it('never splits a group nor loses a member, however the detections of copies interleave', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'DupeRace');
    for (const seed of [61, 62, 63]) {
      await setDetection(false);
      let ids: string[];
      try {
        const photo = shot(seed);
        const made = copies(photo);
        ids = [
          await uploadPhoto(user.accessToken, photo),
          await uploadPhoto(user.accessToken, made.half),
          await uploadPhoto(user.accessToken, made.q40),
          await uploadPhoto(user.accessToken, made.crop),
        ];
      } finally {
        await setDetection(true);
      }
      // Every copy's detection at once, through the media function's job (hash, then detection).
      const outcomes = await Promise.all(
        ids.map((assetId) => generateMedia({ jobs: [{ kind: 'asset-duplicates', assetId, force: true }] })),
      );
      for (const [i, outcome] of outcomes.entries()) expect(outcome.outcomes).toEqual({ [`duplicates/${ids[i]}`]: 'made' });
      const duplicateIds = new Set(await Promise.all(ids.map(async (id) => (await assetV3(user.accessToken, id)).duplicateId)));
      expect(duplicateIds.size).toBe(1);
      const [duplicateId] = [...duplicateIds];
      expect(duplicateId).not.toBeNull();
      const stored = await duplicateRepo.getGroup(user.userId, duplicateId as string);
      expect({ count: stored.count, members: stored.assetIds.sort() }).toEqual({ count: 4, members: [...ids].sort() });
    }
    // Three photos, three groups, each whole.
    const groups = await groupsOf(user.accessToken);
    expect(groups.map((group) => group.assets.length)).toEqual([4, 4, 4]);
  });
});

describe('duplicates found by CLIP (smart search on, through an Immich ML stand-in)', () => {
  it('groups photos whose embeddings are within maxDistance, flat ones too, after the clip step made them', async () => {
    const ml = await startMlService();
    const user = await freshUser(accounts.admin.accessToken, 'DupeClipService');
    try {
      await setMachineLearning((machineLearning) => ({
        ...machineLearning,
        enabled: true,
        urls: [ml.url],
        clip: { enabled: true, modelName: 'ViT-B-32__openai' },
      }));
      // One colour each (no perceptual hash): the stand-in's embedding follows the mean colour.
      const red = [
        await uploadPhoto(user.accessToken, makeJpeg({ width: 320, height: 240, color: [220, 20, 20] })),
        await uploadPhoto(user.accessToken, makeJpeg({ width: 320, height: 240, color: [220, 20, 20] })),
      ];
      const green = await uploadPhoto(user.accessToken, makeJpeg({ width: 320, height: 240, color: [20, 200, 20] }));
      const [group, ...more] = await groupsOf(user.accessToken);
      expect(more).toEqual([]);
      expect(idsOf(group)).toEqual([...red].sort());
      expect((await assetV3(user.accessToken, green)).duplicateId).toBeNull();
    } finally {
      await setMachineLearning((machineLearning) => ({ ...machineLearning, urls: ['http://immich-machine-learning:3003'] }));
      await ml.close();
    }
  });
});
