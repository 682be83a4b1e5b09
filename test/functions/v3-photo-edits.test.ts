import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Vips from 'wasm-vips';
import { handler as downloadAsset } from '#functions/v3/asset/download-asset.ts';
import { handler as editAsset } from '#functions/v3/asset/edit-asset.ts';
import { handler as getAssetEdits } from '#functions/v3/asset/get-asset-edits.ts';
import { handler as getAssetInfo } from '#functions/v3/asset/get-asset-info.ts';
import { handler as removeAssetEdits } from '#functions/v3/asset/remove-asset-edits.ts';
import { handler as viewAsset } from '#functions/v3/asset/view-asset.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { trash } from '../support/library.ts';
import { mediaJobsInProcess, turnOffMl } from '../support/media.ts';
import { sendAcks, syncStream } from '../support/sync-client.ts';
import { storedFiles, upload } from '../support/uploads.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
let vips: Awaited<ReturnType<typeof Vips>>;
// The API functions hand the editor's work to the media function: here, to this test, as the local server does.
const media = mediaJobsInProcess();
beforeAll(async () => {
  accounts = await setupAccounts();
  // Not about OCR or duplicates or faces: off, as each photo's cost (test/support/ml-tasks.ts).
  await turnOffMl(accounts.admin.accessToken, ['facialRecognition', 'ocr', 'duplicateDetection']);
  vips = await Vips();
  media.start();
});
afterAll(() => media.stop());

/** A 400×300 photo in quarters: red and blue on top, green and white below. */
const quarteredPhoto = (): Buffer => {
  const quarter = (color: number[]) => vips.Image.black(200, 150, { bands: 3 }).add(color);
  const [red, blue, green, white] = [quarter([220, 20, 20]), quarter([20, 20, 220]), quarter([20, 200, 20]), quarter([235, 235, 235])];
  const top = red.join(blue, 'horizontal');
  const bottom = green.join(white, 'horizontal');
  const whole = top.join(bottom, 'vertical').cast('uchar');
  try {
    return Buffer.from(whole.jpegsaveBuffer({ Q: 95 }));
  } finally {
    for (const image of [red, blue, green, white, top, bottom, whole]) image.delete();
  }
};

type Colour = 'red' | 'blue' | 'green' | 'white' | 'mixed';
/** The colour of a region of an image: its mean, named. */
const colourOf = (image: InstanceType<typeof vips.Image>): Colour => {
  const [r = 0, g = 0, b = 0] = [0, 1, 2].map((band) => image.extractBand(band).avg());
  if (r > 200 && g > 200 && b > 200) return 'white';
  if (r > 170 && g < 70 && b < 70) return 'red';
  if (b > 170 && r < 70 && g < 70) return 'blue';
  if (g > 150 && r < 70 && b < 70) return 'green';
  return 'mixed';
};
/** An image's size and the colours of its left and right halves. */
const look = (bytes: Buffer) => {
  const image = vips.Image.newFromBuffer(bytes);
  const half = Math.floor(image.width / 2);
  const [left, right] = [image.crop(0, 0, half, image.height), image.crop(image.width - half, 0, half, image.height)];
  try {
    return { width: image.width, height: image.height, left: colourOf(left), right: colourOf(right) };
  } finally {
    for (const each of [image, left, right]) each.delete();
  }
};
const bytesOf = (reply: { body: unknown }) => Buffer.from(String(reply.body), 'base64');

const byId = (token: string, id: string, path: string, extra: Record<string, unknown> = {}) => ({
  path,
  headers: bearer(token),
  pathParameters: { id },
  ...extra,
});
const edit = (token: string, id: string, edits: unknown) =>
  invoke(editAsset, byId(token, id, `/api/assets/${id}/edits`, { method: 'PUT', body: { edits } }));
const info = async (token: string, id: string) => (await invoke(getAssetInfo, byId(token, id, `/api/assets/${id}`))).body;
const view = (token: string, id: string, query: Record<string, string>) =>
  invoke(viewAsset, byId(token, id, `/api/assets/${id}/thumbnail`, { query }));

describe('the photo editor (v3): crop, rotate and mirror, kept beside the untouched original', () => {
  it('applies edits in the media function, answers the edited files when asked, and undoes them', async () => {
    const token = (await freshUser(accounts.admin.accessToken, 'Editor')).accessToken;
    const photo = quarteredPhoto();
    const uploaded = await upload(token, { data: photo, fileName: 'quarters.jpg' });
    const id: string = uploaded.body.id;
    media.run([{ kind: 'asset-media', assetId: id }]);
    await media.settle();
    const before = await info(token, id);
    expect(before).toMatchObject({ isEdited: false, width: 400, height: 300 });

    // The right half (blue over white), turned a quarter clockwise (white | blue), then mirrored left to right (blue | white).
    const edits = [
      { action: 'crop', parameters: { x: 200, y: 0, width: 200, height: 300 } },
      { action: 'rotate', parameters: { angle: 90 } },
      { action: 'mirror', parameters: { axis: 'horizontal' } },
    ];
    const reply = await edit(token, id, edits);
    expect(reply.status).toBe(200);
    expect(reply.body.assetId).toBe(id);
    expect(reply.body.edits.map(({ action, parameters }: { action: string; parameters: unknown }) => ({ action, parameters }))).toEqual(
      edits,
    );
    expect(reply.body.edits.every((item: { id: string }) => /^[0-9a-f-]{36}$/.test(item.id))).toBe(true);
    await media.settle();
    expect((await invoke(getAssetEdits, byId(token, id, `/api/assets/${id}/edits`))).body).toEqual(reply.body);

    const after = await info(token, id);
    expect(after).toMatchObject({ isEdited: true, width: 300, height: 200 });
    expect(after.thumbhash).not.toBe(before.thumbhash);
    // Edited: blue | white, 300×200; unedited (the default), the whole photo.
    const edited = { width: 300, height: 200, left: 'blue', right: 'white' };
    expect(look(bytesOf(await view(token, id, { size: 'preview', edited: 'true' })))).toEqual(edited);
    expect(look(bytesOf(await view(token, id, { size: 'thumbnail', edited: 'true' })))).toMatchObject({ left: 'blue', right: 'white' });
    expect(look(bytesOf(await view(token, id, { size: 'fullsize', edited: 'true' })))).toEqual(edited);
    expect(look(bytesOf(await view(token, id, { size: 'preview' })))).toEqual({ width: 400, height: 300, left: 'mixed', right: 'mixed' });
    const download = (query: Record<string, string>) => invoke(downloadAsset, byId(token, id, `/api/assets/${id}/original`, { query }));
    expect(look(bytesOf(await download({ edited: 'true' })))).toEqual(edited);
    // The original itself never changes.
    expect(bytesOf(await download({}))).toEqual(photo);

    // Removed: the original's previews and size again, and the edited files gone.
    expect((await invoke(removeAssetEdits, byId(token, id, `/api/assets/${id}/edits`, { method: 'DELETE' }))).status).toBe(204);
    await media.settle();
    const undone = await info(token, id);
    expect(undone).toMatchObject({ isEdited: false, width: 400, height: 300, thumbhash: before.thumbhash });
    expect(look(bytesOf(await view(token, id, { size: 'preview', edited: 'true' })))).toEqual({
      width: 400,
      height: 300,
      left: 'mixed',
      right: 'mixed',
    });
    expect((await invoke(getAssetEdits, byId(token, id, `/api/assets/${id}/edits`))).body).toEqual({ assetId: id, edits: [] });
  });

  it('refuses what Immich refuses, and anyone but the owner', async () => {
    const token = accounts.user1.accessToken;
    const id: string = (await upload(token, { data: quarteredPhoto(), fileName: 'other.jpg' })).body.id;
    const crop = { action: 'crop', parameters: { x: 0, y: 0, width: 100, height: 100 } };
    const rotate = { action: 'rotate', parameters: { angle: 90 } };
    expect((await edit(token, id, [rotate, crop])).body).toMatchObject({ message: 'Crop action must be the first edit action' });
    expect((await edit(token, id, [{ ...crop, parameters: { x: 350, y: 0, width: 100, height: 100 } }])).body).toMatchObject({
      message: 'Crop parameters are out of bounds',
    });
    expect(
      (await edit(token, id, [rotate, rotate])).body.errors?.[0]?.message ?? (await edit(token, id, [rotate, rotate])).body.message,
    ).toMatch(/Duplicate edit actions are not allowed/);
    const angle = await edit(token, id, [{ action: 'rotate', parameters: { angle: 45 } }]);
    expect(angle.status).toBe(400);
    expect(JSON.stringify(angle.body)).toContain('Angle must be one of the following values: 0, 90, 180, 270');
    const wrong = await edit(token, id, [{ action: 'mirror', parameters: { angle: 90 } }]);
    expect(JSON.stringify(wrong.body)).toContain("Invalid parameters for action 'mirror', expecting keys: axis");
    expect((await edit(token, id, [])).status).toBe(400);
    // Someone else may neither edit it nor remove its edits; nothing was stored by any of this.
    expect((await edit(accounts.user2.accessToken, id, [rotate])).body).toMatchObject({
      message: 'Not found or no asset.edit.create access',
    });
    const remove = await invoke(removeAssetEdits, byId(accounts.user2.accessToken, id, `/api/assets/${id}/edits`, { method: 'DELETE' }));
    expect(remove.body).toMatchObject({ message: 'Not found or no asset.edit.delete access' });
    expect((await info(token, id)).isEdited).toBe(false);
    await media.settle();
  });

  it('deletes an edited asset’s edited files with it', async () => {
    const token = (await freshUser(accounts.admin.accessToken, 'Tidy')).accessToken;
    const id: string = (await upload(token, { data: quarteredPhoto(), fileName: 'tidy.jpg' })).body.id;
    expect((await edit(token, id, [{ action: 'rotate', parameters: { angle: 180 } }])).status).toBe(200);
    await media.settle();
    const edited = (await storedFiles()).filter((file) => file.includes(`${id}-edited-`));
    expect(edited).toHaveLength(3);
    expect((await trash(token, [id], true)).status).toBe(204);
    expect((await storedFiles()).filter((file) => file.includes(id))).toEqual([]);
  });

  it('syncs the edits to the owner’s apps (AssetEditsV1): each edit in order, and a deletion for each one replaced', async () => {
    const token = (await freshUser(accounts.admin.accessToken, 'Syncer')).accessToken;
    const id: string = (await upload(token, { data: quarteredPhoto(), fileName: 'synced.jpg' })).body.id;
    const edits = (
      await edit(token, id, [
        { action: 'crop', parameters: { x: 0, y: 0, width: 200, height: 150 } },
        { action: 'mirror', parameters: { axis: 'vertical' } },
      ])
    ).body.edits as { id: string }[];
    await media.settle();
    const first = await syncStream(token, { types: ['AssetEditsV1'] });
    const rows = first.lines.filter((line) => line.type === 'AssetEditV1').map((line) => line.data);
    expect(rows).toEqual([
      { id: edits[0]?.id, assetId: id, action: 'crop', parameters: { x: 0, y: 0, width: 200, height: 150 }, sequence: 0 },
      { id: edits[1]?.id, assetId: id, action: 'mirror', parameters: { axis: 'vertical' }, sequence: 1 },
    ]);
    await sendAcks(
      token,
      first.lines.map((line) => line.ack),
    );

    // Replaced: the old two are deleted, the new one sent; removed: it is deleted.
    const again = (await edit(token, id, [{ action: 'rotate', parameters: { angle: 180 } }])).body.edits as { id: string }[];
    await media.settle();
    const second = await syncStream(token, { types: ['AssetEditsV1'] });
    expect(
      second.lines
        .filter((line) => line.type === 'AssetEditDeleteV1')
        .map((line) => line.data.editId)
        .sort(),
    ).toEqual(edits.map((each) => each.id).sort());
    expect(second.lines.filter((line) => line.type === 'AssetEditV1').map((line) => line.data.id)).toEqual([again[0]?.id]);
    await sendAcks(
      token,
      second.lines.map((line) => line.ack),
    );
    expect((await invoke(removeAssetEdits, byId(token, id, `/api/assets/${id}/edits`, { method: 'DELETE' }))).status).toBe(204);
    await media.settle();
    const third = await syncStream(token, { types: ['AssetEditsV1'] });
    expect(third.lines.filter((line) => line.type !== 'SyncCompleteV1').map((line) => [line.type, line.data.editId])).toEqual([
      ['AssetEditDeleteV1', again[0]?.id],
    ]);
    // Someone else's apps hear nothing of them.
    expect(
      (await syncStream(accounts.user2.accessToken, { types: ['AssetEditsV1'] })).lines.filter((line) => line.type === 'AssetEditV1'),
    ).toEqual([]);
  });
});
