import * as v3 from '@immich/sdk-v3';
import { beforeAll, describe, expect, it } from 'vitest';
import Vips from 'wasm-vips';
import { makeJpeg } from '../support/photos.ts';
import { adminWithApiKey, type SdkUser, sdkUpload } from '../support/sdk.ts';
import { useServer } from '../support/server.ts';

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
    vips = await Vips();
  });

  /** The asset once `ready` says so (the media work runs after the request's answer). */
  const settled = async (id: string, ready: (asset: v3.AssetResponseDto) => boolean) => {
    const deadline = Date.now() + 30_000;
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
});
