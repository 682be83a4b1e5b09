import * as v3 from '@immich/sdk-v3';
import { beforeAll, describe, expect, it } from 'vitest';
import Vips from 'wasm-vips';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { makeJpeg } from '../support/photos.ts';
import { adminWithApiKey, type SdkUser, sdkUpload } from '../support/sdk.ts';
import { useServer } from '../support/server.ts';
import { hangGuard } from '../support/timeouts.ts';

/**
 * The v3 web app's actions beyond its pages' reads, through @immich/sdk 3.2.2 and the server (the
 * local one, or the synthesized stack's bundles in the deployed project): the folders view, the
 * photo editor (its edited files made by the media function's bundle deployed), workflows, and
 * what has none here answered as Immich without it answers.
 */
describe('the v3 web app’s actions through @immich/sdk 3.2.2', () => {
  const server = useServer();
  let user: SdkUser;
  let vips: Awaited<ReturnType<typeof Vips>>;

  beforeAll(async () => {
    user = await adminWithApiKey(server.baseUrl, 'actions@immich.cloud');
    // Not about OCR or duplicates or faces: off, as each photo's cost (test/support/ml-tasks.ts).
    await turnOffMlTasks(user, ['facialRecognition', 'ocr', 'duplicateDetection']);
    vips = await Vips();
  });

  /** The asset once `ready` says so (the media work runs after the request's answer). */
  const settled = async (id: string, ready: (asset: v3.AssetResponseDto) => boolean) => {
    const deadline = Date.now() + hangGuard.wait;
    let asset = await v3.getAssetInfo({ id }, user);
    while (!ready(asset) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      asset = await v3.getAssetInfo({ id }, user);
    }
    expect(ready(asset)).toBe(true);
    return asset;
  };
  const sizeOf = async (blob: Blob) => {
    const image = vips.Image.newFromBuffer(Buffer.from(await blob.arrayBuffer()));
    try {
      return { width: image.width, height: image.height };
    } finally {
      image.delete();
    }
  };

  it('lists the folders of the originals and a folder’s photos', async () => {
    const id = await sdkUpload(user, makeJpeg({ width: 320, height: 240, color: [10, 200, 30] }), 'folder.jpg');
    const { originalPath } = await v3.getAssetInfo({ id }, user);
    const folder = originalPath.slice(0, originalPath.lastIndexOf('/'));
    expect(await v3.getUniqueOriginalPaths(user)).toContain(folder);
    expect((await v3.getAssetsByOriginalPath({ path: folder }, user)).map((asset) => asset.id)).toContain(id);
  });

  it('edits a photo: the media function makes its edited files, and removing the edits brings the original back', async () => {
    const id = await sdkUpload(user, makeJpeg({ width: 640, height: 480, color: [200, 120, 40] }), 'edit.jpg');
    const unedited = await settled(id, (asset) => asset.thumbhash !== null);
    const made = await v3.editAsset(
      {
        id,
        assetEditsCreateDto: {
          edits: [
            { action: v3.AssetEditAction.Crop, parameters: { x: 40, y: 0, width: 400, height: 300 } },
            { action: v3.AssetEditAction.Rotate, parameters: { angle: 270 } },
          ],
        },
      },
      user,
    );
    expect(made.edits.map((edit) => edit.action)).toEqual(['crop', 'rotate']);
    const edited = await settled(id, (asset) => asset.thumbhash !== unedited.thumbhash);
    expect(edited).toMatchObject({ isEdited: true, width: 300, height: 400 });
    expect(await sizeOf(await v3.viewAsset({ id, size: v3.AssetMediaSize.Preview, edited: true }, user))).toEqual({
      width: 300,
      height: 400,
    });
    expect(await sizeOf(await v3.downloadAsset({ id, edited: true }, user))).toEqual({ width: 300, height: 400 });
    expect(await sizeOf(await v3.viewAsset({ id, size: v3.AssetMediaSize.Preview }, user))).toEqual({ width: 640, height: 480 });
    expect((await v3.getAssetEdits({ id }, user)).edits).toHaveLength(2);

    await v3.removeAssetEdits({ id }, user);
    const back = await settled(id, (asset) => asset.thumbhash === unedited.thumbhash);
    expect(back).toMatchObject({ isEdited: false, width: 640, height: 480 });
  });

  it('keeps workflows (with no steps: no plugin exists), refuses product keys it cannot verify and external libraries', async () => {
    const workflow = await v3.createWorkflow({ workflowCreateDto: { trigger: v3.WorkflowTrigger.AssetCreate, name: 'On upload' } }, user);
    expect((await v3.searchWorkflows({}, user)).map((each) => each.id)).toContain(workflow.id);
    await v3.updateWorkflow({ id: workflow.id, workflowUpdateDto: { enabled: false } }, user);
    expect(await v3.getWorkflowForShare({ id: workflow.id }, user)).toEqual({
      trigger: 'AssetCreate',
      name: 'On upload',
      description: null,
      steps: [],
    });
    await v3.deleteWorkflow({ id: workflow.id }, user);
    expect((await v3.searchWorkflows({}, user)).map((each) => each.id)).not.toContain(workflow.id);

    const key = 'IMSV-AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GGGG-HHHH';
    await expect(v3.setServerLicense({ licenseKeyDto: { licenseKey: key, activationKey: 'AAAA' } }, user)).rejects.toMatchObject({
      status: 400,
      data: { message: 'Invalid license key' },
    });
    const me = await v3.getMyUser(user);
    await expect(v3.createLibrary({ createLibraryDto: { ownerId: me.id } }, user)).rejects.toMatchObject({ status: 400 });
    expect(await v3.getMaintenanceStatus({ baseUrl: server.baseUrl })).toEqual({ active: false, action: 'end' });
  });
  it('changes dates as the date dialogs do: the photo moves to its new local day in the timeline and in searches', async () => {
    const jpeg = makeJpeg({
      width: 320,
      height: 240,
      color: [30, 60, 90],
      dateTimeOriginal: '2019:05:05 12:00:00',
      offsetTimeOriginal: '+00:00',
      make: 'E2E',
      model: 'Body',
      lensModel: 'E2E 35mm',
    });
    const id = await sdkUpload(user, jpeg, 'dated.jpg');
    const inBucket = async (timeBucket: string) => (await v3.getTimeBucket({ timeBucket }, user)).id.includes(id);
    expect(await inBucket('2019-05-01')).toBe(true);

    // One photo (AssetChangeDateModal): the date with its offset.
    const changed = await v3.updateAsset({ id, updateAssetDto: { dateTimeOriginal: '2024-06-01T01:00:00.000+02:00' } }, user);
    expect(changed).toMatchObject({
      fileCreatedAt: '2024-05-31T23:00:00.000Z',
      localDateTime: '2024-06-01T01:00:00.000Z',
      exifInfo: { dateTimeOriginal: '2024-05-31T23:00:00.000Z', timeZone: 'UTC+2' },
    });
    expect(await inBucket('2024-06-01')).toBe(true);
    expect((await v3.getTimeBuckets({}, user)).map((bucket) => bucket.timeBucket)).not.toContain('2019-05-01');
    const taken = await v3.searchAssets(
      { metadataSearchDto: { takenAfter: '2024-05-31T00:00:00.000Z', takenBefore: '2024-06-02T00:00:00.000Z' } },
      user,
    );
    expect(taken.assets.items.map((asset) => asset.id)).toEqual([id]);

    // Several (AssetSelectionChangeDateModal): a day later, in Paris.
    await v3.updateAssets({ assetBulkUpdateDto: { ids: [id], dateTimeRelative: 24 * 60, timeZone: 'Europe/Paris' } }, user);
    expect(await v3.getAssetInfo({ id }, user)).toMatchObject({
      fileCreatedAt: '2024-06-01T23:00:00.000Z',
      localDateTime: '2024-06-02T01:00:00.000Z',
      exifInfo: { timeZone: 'Europe/Paris' },
    });

    // The search options dialog's suggestions, its lens and Unknown among them.
    const lenses = await v3.getSearchSuggestions({ $type: v3.SearchSuggestionType.CameraLensModel, includeNull: true }, user);
    expect(lenses).toContain('E2E 35mm');
    expect(lenses.at(-1)).toBeNull();
  });

  it('shows the storage the sidebar reads: the usage, against all the server stores without a quota', async () => {
    const me = await v3.getMyUser(user);
    const storage = await v3.getStorage(user);
    expect(me.quotaSizeInBytes).toBeNull();
    expect(storage.diskUseRaw).toBe(me.quotaUsageInBytes);
    expect(storage.diskSizeRaw).toBeGreaterThanOrEqual(storage.diskUseRaw);
    expect(storage.diskSizeRaw).toBeLessThan(1024 ** 4);
  });
});
