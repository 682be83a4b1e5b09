import { makeJpeg } from '../support/photos.ts';
import { type SdkUser, sdkUpload } from '../support/sdk.ts';

const palette: [number, number, number][] = [
  [214, 96, 77],
  [74, 144, 226],
  [80, 170, 110],
  [240, 190, 60],
  [150, 90, 200],
  [60, 60, 70],
  [200, 200, 90],
  [30, 120, 140],
];

/** `count` photos of the e2e runs' library: on three days of 2024, the first two with Ada's face region; their ids. */
export const uploadSeedPhotos = async (user: SdkUser, count: number, prefix: string, deviceId?: string): Promise<string[]> => {
  const ids: string[] = [];
  for (const [index, color] of palette.slice(0, count).entries()) {
    const day = `2024:0${1 + (index % 3)}:1${index} 10:00:00`;
    const faces = index < 2 ? { mwgFaces: [{ name: 'Ada Lovelace', x: 0.3, y: 0.2, w: 0.4, h: 0.5 }] } : {};
    const photo = makeJpeg({ width: 800, height: 600, color, dateTimeOriginal: day, ...faces });
    ids.push(await sdkUpload(user, photo, `${prefix}${index}.jpg`, ...(deviceId ? [deviceId] : [])));
  }
  return ids;
};
