import * as v1 from '@immich/sdk';
import * as v3 from '@immich/sdk-v3';
import { beforeAll, describe, expect, it } from 'vitest';
import Vips from 'wasm-vips';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { makeScene, shootScene } from '../support/scenes.ts';
import { adminWithApiKey, type SdkUser, sdkUpload } from '../support/sdk.ts';
import { useServer } from '../support/server.ts';
import { hangGuard } from '../support/timeouts.ts';

/**
 * Duplicates through the server (local, or the synthesized stack's bundles) with Immich's own v3
 * SDK (docs/immich-compatibility.md, "Duplicates"): photos uploaded by @immich/sdk are hashed by
 * the media function and grouped with their copies, with no machine learning; the web app's
 * calls list, resolve and dismiss the groups.
 */
describe('duplicates through @immich/sdk 3.2.2', () => {
  const server = useServer();
  let user: SdkUser;
  const ids: string[] = [];
  let other = '';

  beforeAll(async () => {
    const admin = await adminWithApiKey(server.baseUrl, 'dupes@immich.cloud');
    // Duplicate detection is what this file is about: not the uploads' faces or OCR (as test/functions/duplicates.test.ts).
    await turnOffMlTasks(admin, ['facialRecognition', 'ocr']);
    const email = `dupes${Date.now()}@immich.cloud`;
    await v1.createUser({ createUserDto: { email, password: 'password', name: 'Dupes' } }, admin);
    const { accessToken } = await v1.login({ loginCredentialDto: { email, password: 'password' } }, { baseUrl: server.baseUrl });
    const session = { baseUrl: server.baseUrl, headers: { Authorization: `Bearer ${accessToken}` } };
    const { secret } = await v3.createApiKey({ apiKeyCreateDto: { name: 'dupes', permissions: [v3.Permission.All] } }, session);
    user = { baseUrl: server.baseUrl, headers: { 'x-api-key': secret } };
    const { Image } = await Vips();
    const photo = shootScene(makeScene(71), { width: 640, height: 480, grainSeed: 71 });
    const image = Image.newFromBuffer(photo);
    ids.push(await sdkUpload(user, photo, 'scene.jpg'));
    ids.push(await sdkUpload(user, Buffer.from(image.resize(0.5).jpegsaveBuffer({ Q: 85 })), 'scene-small.jpg'));
    ids.push(await sdkUpload(user, Buffer.from(image.webpsaveBuffer({ Q: 70 })), 'scene.webp'));
    other = await sdkUpload(user, shootScene(makeScene(72), { width: 640, height: 480, grainSeed: 72 }), 'other.jpg');
    // The media function groups each photo after the upload's answer: wait for the three.
    const deadline = Date.now() + hangGuard.wait;
    while (((await v3.getAssetDuplicates(user))[0]?.assets.length ?? 0) < 3 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 250));
  });

  it('reports the feature on, lists the copies as one group with a suggestion, and never the other photo', async () => {
    expect((await v3.getServerFeatures(user)).duplicateDetection).toBe(true);
    const groups = await v3.getAssetDuplicates(user);
    expect(groups).toHaveLength(1);
    const [group] = groups;
    expect(group?.assets.map((asset) => asset.id).sort()).toEqual([...ids].sort());
    expect(group?.suggestedKeepAssetIds).toEqual([ids[0]]);
    expect((await v3.getAssetInfo({ id: ids[1] as string }, user)).duplicateId).toBe(group?.duplicateId);
    expect((await v3.getAssetInfo({ id: other }, user)).duplicateId).toBeNull();
  });

  it('resolves a group: the one kept, the others trashed; a second resolve of it is refused', async () => {
    const [group] = await v3.getAssetDuplicates(user);
    const duplicateId = group?.duplicateId as string;
    const results = await v3.resolveDuplicates(
      { duplicateResolveDto: { groups: [{ duplicateId, keepAssetIds: [ids[0] as string], trashAssetIds: ids.slice(1) }] } },
      user,
    );
    expect(results).toEqual([{ id: duplicateId, success: true }]);
    expect(await v3.getAssetDuplicates(user)).toEqual([]);
    for (const id of ids.slice(1)) expect((await v3.getAssetInfo({ id }, user)).isTrashed).toBe(true);
    await expect(v3.deleteDuplicate({ id: duplicateId }, user)).rejects.toMatchObject({ status: 400 });
    await expect(v3.deleteDuplicates({ bulkIdsDto: { ids: [duplicateId] } }, user)).rejects.toMatchObject({ status: 400 });
  });
});
