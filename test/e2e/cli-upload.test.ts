import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import {
  type AssetResponseDto,
  AssetTypeEnum,
  checkBulkUpload,
  createApiKey,
  createSharedLink,
  createUser,
  getAlbumInfo,
  getAllAlbums,
  getAllPeople,
  getAssetInfo,
  getMySharedLink,
  getPersonAssets,
  getSharedLinkById,
  login,
  SharedLinkType,
  signUpAdmin,
} from '@immich/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { makeJpeg, makeSidecar } from '../support/photos.ts';
import { useServer } from '../support/server.ts';
import { hangGuard } from '../support/timeouts.ts';
import { sha1 } from '../support/uploads.ts';
import { makeVideo } from '../support/videos.ts';

const run = promisify(execFile);
const cli = join(import.meta.dirname, '..', '..', 'node_modules', '@immich', 'cli', 'dist', 'index.js');

/** Runs the real `immich` binary (@immich/cli 2.1.0) on this Node, with its own config folder. */
const immich = (configDir: string, ...args: string[]) =>
  run(process.execPath, [cli, ...args], {
    env: { ...process.env, IMMICH_CONFIG_DIR: configDir, NO_COLOR: '1' },
    timeout: hangGuard.process,
  });

const fileDate = new Date('2022-02-03T04:05:06.000Z');

interface LibraryFile {
  path: string;
  /** What the API should report for it. */
  expected: Partial<Omit<AssetResponseDto, 'people' | 'exifInfo'>> & { exifInfo?: Record<string, unknown>; people?: string[] };
}

/** A small photo library on disk: EXIF photos, an iPhone HEIC, a video, a sidecar, faces, a nested folder, a file the CLI skips. */
const writeLibrary = (root: string): LibraryFile[] => {
  mkdirSync(join(root, 'trip', 'day 2'), { recursive: true });
  const files: [string, Buffer, LibraryFile['expected']][] = [
    [
      'trip/harbour.jpg',
      makeJpeg({
        make: 'FUJIFILM',
        model: 'X-T5',
        lensModel: 'XF23mmF1.4 R LM WR',
        fNumber: 2,
        exposureTime: 1 / 500,
        iso: 160,
        focalLength: 23,
        dateTimeOriginal: '2023:08:14 18:02:03',
        offsetTimeOriginal: '+01:00',
        city: 'Bergen',
        country: 'Norway',
        latitude: 60.39,
        longitude: 5.32,
        mwgFaces: [{ name: 'Ingrid', x: 0.2, y: 0.2, w: 0.2, h: 0.3 }],
      }),
      {
        fileCreatedAt: '2023-08-14T17:02:03.000Z',
        localDateTime: '2023-08-14T18:02:03.000Z',
        exifInfo: {
          make: 'FUJIFILM',
          model: 'X-T5',
          fNumber: 2,
          exposureTime: '1/500',
          iso: 160,
          focalLength: 23,
          timeZone: 'UTC+1',
          city: 'Bergen',
          country: 'Norway',
        },
        people: ['Ingrid'],
      },
    ],
    [
      'trip/day 2/fjord.jpg',
      makeJpeg({
        make: 'Apple',
        model: 'iPhone 15',
        dateTimeOriginal: '2023:08:15 09:00:00',
        offsetTimeOriginal: '+02:00',
        microsoftFaces: [
          { name: 'ingrid', x: 0.1, y: 0.1, w: 0.3, h: 0.3 },
          { name: 'Olav', x: 0.6, y: 0.2, w: 0.2, h: 0.2 },
        ],
      }),
      {
        fileCreatedAt: '2023-08-15T07:00:00.000Z',
        exifInfo: { make: 'Apple', model: 'iPhone 15', timeZone: 'UTC+2' },
        people: ['Ingrid', 'Olav'],
      },
    ],
    [
      'trip/day 2/edited.jpg',
      makeJpeg({ make: 'Apple', model: 'iPhone 15', dateTimeOriginal: '2023:08:15 10:00:00', description: 'in camera' }),
      { fileCreatedAt: '2023-08-16T12:00:00.000Z', exifInfo: { description: 'from Lightroom', timeZone: 'UTC+2' }, people: ['Olav'] },
    ],
    [
      'trip/IMG_0001.HEIC',
      readFileSync(join(import.meta.dirname, '..', 'fixtures', 'iphone.heic')),
      // No offset in the file: the zone of its GPS position (test/fixtures/README.md).
      { fileCreatedAt: '2023-06-01T15:30:00.000Z', exifInfo: { make: 'Apple', timeZone: 'America/Chicago' } },
    ],
    [
      'trip/clip.mp4',
      makeVideo({ seconds: 1, width: 320, height: 180, creationTime: '2021-05-04T10:20:30Z' }),
      { type: AssetTypeEnum.Video, duration: '00:00:01.000', fileCreatedAt: '2021-05-04T10:20:30.000Z', exifInfo: { exifImageWidth: 320 } },
    ],
    [
      'scan.jpg',
      makeJpeg({ width: 32, height: 32 }),
      {
        fileCreatedAt: fileDate.toISOString(),
        localDateTime: fileDate.toISOString(),
        exifInfo: { make: null, dateTimeOriginal: fileDate.toISOString(), timeZone: null },
      },
    ],
  ];
  const library: LibraryFile[] = [];
  for (const [relative, data, expected] of files) {
    const path = join(root, relative);
    writeFileSync(path, data);
    utimesSync(path, fileDate, fileDate);
    library.push({ path, expected });
  }
  writeFileSync(
    join(root, 'trip', 'day 2', 'edited.jpg.xmp'),
    makeSidecar({
      description: 'from Lightroom',
      dateTimeOriginal: '2023:08:16 14:00:00',
      offsetTimeOriginal: '+02:00',
      mwgFaces: [{ name: 'Olav', x: 0.5, y: 0.5, w: 0.2, h: 0.2 }],
    }),
  );
  writeFileSync(join(root, 'trip', 'notes.txt'), 'not a photo');
  return library;
};

describe('the immich CLI (2.1.0) uploads a library into the local server', () => {
  const server = useServer();
  let apiKey: string;
  let other: { baseUrl: string; headers: Record<string, string> };

  beforeAll(async () => {
    const { baseUrl } = server;
    await signUpAdmin({ signUpDto: { email: 'admin@immich.cloud', password: 'password', name: 'Admin' } }, { baseUrl });
    const admin = await login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl });
    const asAdmin = { baseUrl, headers: { Authorization: `Bearer ${admin.accessToken}` } };
    // Not about OCR or duplicates: off, as each photo's cost (test/support/ml-tasks.ts).
    await turnOffMlTasks(asAdmin, ['ocr', 'duplicateDetection']);
    await createUser({ createUserDto: { email: 'photographer@immich.cloud', password: 'password', name: 'Photographer' } }, asAdmin);
    const user = await login({ loginCredentialDto: { email: 'photographer@immich.cloud', password: 'password' } }, { baseUrl });
    apiKey = (
      await createApiKey({ apiKeyCreateDto: { name: 'cli' } }, { baseUrl, headers: { Authorization: `Bearer ${user.accessToken}` } })
    ).secret;
    other = asAdmin;
  });

  it('login-key, upload --recursive, upload again (nothing new); the SDK reads back assets and people', async () => {
    const root = mkdtempSync(join(tmpdir(), 'library-'));
    const library = writeLibrary(join(root, 'photos'));
    const config = join(root, 'config');

    const loggedIn = await immich(config, 'login-key', server.baseUrl, apiKey);
    expect(loggedIn.stdout).toMatch(/Logged in as photographer@immich\.cloud/);

    const first = await immich(config, 'upload', '--recursive', join(root, 'photos'));
    expect(first.stdout).toMatch(/Successfully uploaded 6 assets/);
    const second = await immich(config, 'upload', '--recursive', join(root, 'photos'));
    expect(second.stdout).toMatch(/All assets were already uploaded, nothing to do/);

    const asUser = { baseUrl: server.baseUrl, headers: { 'x-api-key': apiKey } };
    const check = await checkBulkUpload(
      { assetBulkUploadCheckDto: { assets: library.map((file) => ({ id: file.path, checksum: sha1(readFileSync(file.path)) })) } },
      asUser,
    );
    expect(check.results.every((result) => result.action === 'reject' && result.reason === 'duplicate' && result.assetId)).toBe(true);

    // One person per name, whatever the case (the first file uploaded gives the spelling).
    const people = await getAllPeople({}, asUser);
    expect(people.people.map((person) => person.name.toLowerCase()).sort()).toEqual(['ingrid', 'olav']);

    for (const [index, file] of library.entries()) {
      const data = readFileSync(file.path);
      const asset = await getAssetInfo({ id: check.results[index]?.assetId ?? '' }, asUser);
      const { people: names, exifInfo, ...fields } = file.expected;
      expect(asset).toMatchObject({
        checksum: sha1(data, 'base64'),
        originalFileName: basename(file.path),
        deviceId: 'CLI',
        deviceAssetId: `${basename(file.path)}-${data.length}`.replaceAll(/\s+/g, ''),
        fileModifiedAt: fileDate.toISOString(),
        type: 'IMAGE',
        ...fields,
        exifInfo: { fileSizeInByte: data.length, exifImageWidth: expect.any(Number), ...exifInfo },
      });
      expect((asset.people ?? []).map((person) => person.name.toLowerCase()).sort()).toEqual(
        (names ?? []).map((name) => name.toLowerCase()).sort(),
      );
      // Nobody else sees it.
      const foreign = await getAssetInfo({ id: asset.id }, other).catch((error: { status?: number }) => error.status);
      expect(foreign).toBe(400);
    }
    expect((await getAllPeople({}, other)).people).toEqual([]);

    // Within seconds every photo and the video (its poster) are resized, with a thumbhash.
    const ids = check.results.map((result) => result.assetId ?? '');
    const deadline = Date.now() + hangGuard.wait;
    let pending = ids;
    while (pending.length > 0 && Date.now() < deadline) {
      const assets = await Promise.all(pending.map((id) => getAssetInfo({ id }, asUser)));
      pending = assets.filter((asset) => !asset.resized || !asset.thumbhash).map((asset) => asset.id);
      if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(pending).toEqual([]);

    // --album: one album per folder, through getAllAlbums, createAlbum and addAssetsToAlbum.
    const albums = await immich(config, 'upload', '--recursive', '--album', join(root, 'photos'));
    expect(albums.stdout).toMatch(/Successfully created 3 new albums/);
    const byName = new Map((await getAllAlbums({}, asUser)).map((album) => [album.albumName, album]));
    expect([...byName.keys()].sort()).toEqual(['day 2', 'photos', 'trip']);
    expect(byName.get('day 2')?.assetCount).toBe(2);
    const again = await immich(config, 'upload', '--recursive', '--album', join(root, 'photos'));
    expect(again.stdout).toMatch(/Successfully created 0 new albums/);
    expect((await getAllAlbums({}, asUser)).length).toBe(3);

    // People's assets, and an album shared by link: what a visitor sees.
    const ingrid = people.people.find((person) => person.name.toLowerCase() === 'ingrid');
    const ingridAssets = await getPersonAssets({ id: ingrid?.id ?? '' }, asUser);
    expect(ingridAssets.map((asset) => asset.originalFileName)).toEqual(['fjord.jpg', 'harbour.jpg']);
    expect(ingridAssets.every((asset) => asset.people?.length === 1 && asset.people[0]?.id === ingrid?.id)).toBe(true);

    const day2 = byName.get('day 2');
    const link = await createSharedLink(
      { sharedLinkCreateDto: { type: SharedLinkType.Album, albumId: day2?.id ?? '', showMetadata: false } },
      asUser,
    );
    const creatorView = await getSharedLinkById({ id: link.id }, asUser);
    expect(creatorView.album?.albumName).toBe('day 2');
    expect(creatorView.assets.map((asset) => asset.originalFileName).sort()).toEqual(['edited.jpg', 'fjord.jpg']);
    const visitor = await getMySharedLink({ key: link.key }, { baseUrl: server.baseUrl });
    expect(visitor.assets).toHaveLength(2);
    expect(JSON.stringify(visitor.assets)).not.toMatch(/exifInfo|originalPath|originalFileName|fjord/);
    expect((await getAlbumInfo({ id: day2?.id ?? '' }, asUser)).assets).toHaveLength(2);
  });
});
