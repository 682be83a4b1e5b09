import { portrait } from '../support/people-photos.ts';
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

/**
 * Where the seeded photos were taken (the media function names their places: docs/places.md):
 * six around Ralston, Nebraska (Explore shows a city with five; the v3 run locks one), the rest in Paris.
 */
const positionOf = (index: number) =>
  index < 6 ? { latitude: 41.2203 + index * 0.002, longitude: -96.0716 } : { latitude: 48.8566, longitude: 2.3522 + index * 0.002 };

/** `count` photos of the e2e runs' library: on three days of 2024, the first two with Ada's face region; their ids. */
export const uploadSeedPhotos = async (user: SdkUser, count: number, prefix: string, deviceId?: string): Promise<string[]> => {
  const ids: string[] = [];
  for (const [index, color] of palette.slice(0, count).entries()) {
    const day = `2024:0${1 + (index % 3)}:1${index} 10:00:00`;
    const faces = index < 2 ? { mwgFaces: [{ name: 'Ada Lovelace', x: 0.3, y: 0.2, w: 0.4, h: 0.5 }] } : {};
    const photo = makeJpeg({ width: 800, height: 600, color, dateTimeOriginal: day, ...positionOf(index), ...faces });
    ids.push(await sdkUpload(user, photo, `${prefix}${index}.jpg`, ...(deviceId ? [deviceId] : [])));
  }
  return ids;
};

/**
 * Three photos of one woman's face, with no face region (test/support/people-photos.ts): the media
 * function finds her and makes her a person (docs/faces.md), unnamed, beside Ada. Their ids.
 */
export const uploadPeoplePhotos = async (user: SdkUser, prefix: string): Promise<string[]> => {
  const ids: string[] = [];
  for (const variant of [0, 1, 2]) ids.push(await sdkUpload(user, (await portrait('ana', variant)).data, `${prefix}face-${variant}.jpg`));
  return ids;
};

/** The person the media function made of those photos (no name, a thumbnail), once it has. */
export const detectedPerson = (people: { people: { name: string; thumbnailPath: string; id: string }[] }) =>
  people.people.find((person) => person.name === '' && person.thumbnailPath !== '');

/**
 * A map style the browser can load with no network (the runs have none): a background and the
 * app's own marker layers, no tiles. Immich's default styles are on its tile service.
 */
export const offlineMapStyle = (theme: 'light' | 'dark'): string =>
  `data:application/json,${encodeURIComponent(
    JSON.stringify({
      version: 8,
      id: `immich-map-${theme}`,
      name: 'Offline',
      sources: {},
      layers: [{ id: 'background', type: 'background', paint: { 'background-color': theme === 'light' ? '#e8f4ed' : '#1f2a30' } }],
    }),
  )}`;
