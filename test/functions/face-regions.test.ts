import jpeg from 'jpeg-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getPersonThumbnail } from '#functions/person/get-person-thumbnail.ts';
import { handler as getFacesV3 } from '#functions/v3/face/get-faces.ts';
import { bearer, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { assetInfo, personNamed } from '../support/library.ts';
import { changeConfig, objectCreated } from '../support/media.ts';
import { shownPoint } from '../support/orientation.ts';
import { type FaceRegion, makeJpeg } from '../support/photos.ts';
import { upload } from '../support/uploads.ts';

/**
 * A person named by a file's face region gets a thumbnail of that face (docs/faces.md, "Regions
 * from the files"): photos whose only distinct pixels are a patch of one colour where the region
 * is, stored turned by each EXIF orientation, with the region written for the stored pixels as
 * MWG and as Microsoft regions; the person's thumbnail, cropped from the upright preview, must show
 * the patch's colour.
 */
let token: string;
beforeAll(async () => {
  const accounts = await setupAccounts();
  token = accounts.user1.accessToken;
  // The file's regions alone: no face is looked for (the patches are none), which saves the detector's time.
  await changeConfig(accounts.admin.accessToken, (config) => ({
    ...config,
    machineLearning: { ...config.machineLearning, enabled: false },
  }));
});

/** The image as shown, and the patch on it (off-centre, so that any other turn of it lands elsewhere). */
const shown = { width: 320, height: 240 };
const patch = { x1: 40, y1: 50, x2: 120, y2: 130 };
const patchColor: [number, number, number] = [225, 30, 40];
const background: [number, number, number] = [40, 90, 200];

/** A photo stored turned by `orientation` whose shown image has the patch, and the patch's region on the stored pixels. */
const patchedPhoto = (orientation: number, name: string, set: 'mwgFaces' | 'microsoftFaces'): Buffer => {
  const sideways = orientation >= 5;
  const stored = sideways ? { width: shown.height, height: shown.width } : shown;
  const inPatch = (x: number, y: number) => {
    const [sx, sy] = shownPoint(orientation, x + 0.5, y + 0.5, stored.width, stored.height);
    return sx >= patch.x1 && sx < patch.x2 && sy >= patch.y1 && sy < patch.y2;
  };
  // The region: the stored pixels the patch covers, as fractions of the stored image.
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < stored.height; y++)
    for (let x = 0; x < stored.width; x++)
      if (inPatch(x, y)) {
        xs.push(x);
        ys.push(y);
      }
  const region: FaceRegion = {
    name,
    x: Math.min(...xs) / stored.width,
    y: Math.min(...ys) / stored.height,
    w: (Math.max(...xs) + 1 - Math.min(...xs)) / stored.width,
    h: (Math.max(...ys) + 1 - Math.min(...ys)) / stored.height,
  };
  return makeJpeg({
    ...stored,
    orientation,
    color: background,
    paint: (x, y) => (inPatch(x, y) ? patchColor : undefined),
    [set]: [region],
  });
};

/** The mean colour of the thumbnail's middle fifth (a JPEG). */
const middleColor = (base64: string): number[] => {
  const image = jpeg.decode(Buffer.from(base64, 'base64'), { useTArray: true });
  const sum = [0, 0, 0];
  let n = 0;
  const [x0, x1, y0, y1] = [0.4 * image.width, 0.6 * image.width, 0.4 * image.height, 0.6 * image.height].map(Math.round) as number[];
  for (let y = y0 as number; y < (y1 as number); y++)
    for (let x = x0 as number; x < (x1 as number); x++) {
      for (let c = 0; c < 3; c++) sum[c] = (sum[c] ?? 0) + (image.data[(y * image.width + x) * 4 + c] ?? 0);
      n++;
    }
  return sum.map((value) => Math.round(value / n));
};

describe('face regions on turned photos', () => {
  for (const set of ['mwgFaces', 'microsoftFaces'] as const)
    it(`crops each ${set === 'mwgFaces' ? 'MWG' : 'Microsoft'} region's person from where the region is, for EXIF orientations 1 to 8`, async () => {
      for (let orientation = 1; orientation <= 8; orientation++) {
        const name = `Patch ${set} ${orientation}`;
        const reply = await upload(token, { data: patchedPhoto(orientation, name, set), fileName: `patch-${set}-${orientation}.jpg` });
        expect(reply.status, JSON.stringify(reply.body)).toBe(201);
        const id = reply.body.id as string;
        // The face as both generations' viewers draw it: over the patch of the image as shown.
        const [face, ...others] = (await invoke(getFacesV3, { path: '/api/faces', query: { id }, headers: bearer(token) })).body;
        expect(others).toEqual([]);
        expect([face.imageWidth, face.imageHeight], `orientation ${orientation}`).toEqual([shown.width, shown.height]);
        const box = [face.boundingBoxX1, face.boundingBoxY1, face.boundingBoxX2, face.boundingBoxY2];
        for (const [i, edge] of [patch.x1, patch.y1, patch.x2, patch.y2].entries())
          expect(Math.abs((box[i] as number) - edge), `orientation ${orientation}: ${box} for the patch`).toBeLessThanOrEqual(1);
        // The person's thumbnail, cropped from the preview by the media function, is the patch's colour.
        await objectCreated((await assetInfo(token, id)).body.originalPath);
        const person = await personNamed(token, name);
        const thumbnail = await invoke(getPersonThumbnail, {
          path: `/api/person/${person.id}/thumbnail`,
          pathParameters: { id: person.id },
          headers: bearer(token),
        });
        expect(thumbnail.status).toBe(200);
        const color = middleColor(thumbnail.body);
        for (const [c, value] of color.entries())
          expect(Math.abs(value - (patchColor[c] as number)), `orientation ${orientation}: ${color}`).toBeLessThan(25);
      }
    });
});
