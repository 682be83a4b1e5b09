import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v1 from '@immich/sdk';
import * as v3 from '@immich/sdk-v3';
import { beforeAll, describe, expect, it } from 'vitest';
import { immichCli } from '../support/immich-cli.ts';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { makeJpeg } from '../support/photos.ts';
import { useServer } from '../support/server.ts';
import { sha1 } from '../support/uploads.ts';
import { makeVideo } from '../support/videos.ts';

/** The same, for a run that must fail: its output and exit code. */
const immichFails = async (configDir: string, ...args: string[]) => {
  try {
    await immichCli(configDir, ...args);
  } catch (error) {
    const { stdout, stderr, code } = error as { stdout: string; stderr: string; code: number };
    return { stdout, stderr, code };
  }
  throw new Error(`immich ${args.join(' ')} succeeded`);
};

const fileDate = new Date('2022-02-03T04:05:06.000Z');

/** A small library: photos in two folders (each an album with --album) and a video. */
const writeLibrary = (root: string): Map<string, Buffer> => {
  mkdirSync(join(root, 'Lisbon'), { recursive: true });
  mkdirSync(join(root, 'Porto'), { recursive: true });
  const files = new Map<string, Buffer>([
    [join(root, 'Lisbon', 'tram.jpg'), makeJpeg({ make: 'Apple', model: 'iPhone 15', dateTimeOriginal: '2024:04:01 10:00:00' })],
    [join(root, 'Lisbon', 'river.jpg'), makeJpeg({ color: [20, 80, 200] })],
    [join(root, 'Porto', 'bridge.jpg'), makeJpeg({ color: [200, 80, 20] })],
    [join(root, 'Porto', 'boat.mp4'), makeVideo({ seconds: 1, width: 160, height: 90 })],
  ]);
  for (const [path, data] of files) {
    writeFileSync(path, data);
    utimesSync(path, fileDate, fileDate);
  }
  return files;
};

describe("today's immich CLI (3.2.2) against the server's v3 routes, read back through both generations", () => {
  const server = useServer();
  let full: string;
  let readOnly: string;
  let noUpload: string;
  let asUser: { baseUrl: string; headers: Record<string, string> };

  beforeAll(async () => {
    const { baseUrl } = server;
    await v3.signUpAdmin({ signUpDto: { email: 'admin@immich.cloud', password: 'password', name: 'Admin' } }, { baseUrl });
    const admin = await v3.login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl });
    expect(admin).toMatchObject({ isAdmin: true, isOnboarded: false });
    const asAdmin = { baseUrl, headers: { Authorization: `Bearer ${admin.accessToken}` } };
    // The CLI's uploads are what this file is about: none of their machine learning.
    await turnOffMlTasks(asAdmin, ['facialRecognition', 'ocr', 'duplicateDetection']);
    await v1.createUser({ createUserDto: { email: 'traveller@immich.cloud', password: 'password', name: 'Traveller' } }, asAdmin);
    const user = await v3.login({ loginCredentialDto: { email: 'traveller@immich.cloud', password: 'password' } }, { baseUrl });
    const session = { baseUrl, headers: { Authorization: `Bearer ${user.accessToken}` } };
    const key = async (permissions: v3.Permission[]) =>
      (await v3.createApiKey({ apiKeyCreateDto: { name: 'cli', permissions } }, session)).secret;
    full = await key([v3.Permission.All]);
    readOnly = await key([v3.Permission.AssetRead]);
    noUpload = await key([v3.Permission.UserRead, v3.Permission.AssetRead]);
    asUser = { baseUrl, headers: { 'x-api-key': full } };
  });

  it('logs in with a key, uploads a folder recursively into albums, and uploads nothing the second time', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cli-v3-'));
    const files = writeLibrary(join(root, 'photos'));
    const config = join(root, 'config');

    const loggedIn = await immichCli(config, 'login', server.baseUrl, full);
    expect(loggedIn.stdout).toMatch(/Logged in as traveller@immich\.cloud/);

    const first = await immichCli(config, 'upload', '--recursive', '--album', join(root, 'photos'));
    expect(first.stdout).toMatch(/Successfully uploaded 4 new assets/);
    expect(first.stdout).toMatch(/Successfully created 2 new albums/);
    const second = await immichCli(config, 'upload', '--recursive', '--album', join(root, 'photos'));
    expect(second.stdout).toMatch(/Found 0 new files and 4 duplicates/);
    expect(second.stdout).toMatch(/All assets were already uploaded, nothing to do/);

    // The albums, through both generations.
    const albums = await v3.getAllAlbums({}, asUser);
    expect(albums.map((album) => [album.albumName, album.assetCount]).sort()).toEqual([
      ['Lisbon', 2],
      ['Porto', 2],
    ]);
    expect(albums[0]?.albumUsers[0]).toMatchObject({ role: 'owner', user: { email: 'traveller@immich.cloud' } });
    expect((await v1.getAllAlbums({}, asUser)).map((album) => album.albumName).sort()).toEqual(['Lisbon', 'Porto']);

    // Every file, once, as the v3 SDK and the v1.100 SDK read it.
    const check = await v3.checkBulkUpload(
      { assetBulkUploadCheckDto: { assets: [...files].map(([path, data]) => ({ id: path, checksum: sha1(data) })) } },
      asUser,
    );
    for (const result of check.results) {
      expect(result).toMatchObject({ action: 'reject', reason: 'duplicate' });
      const asset = await v3.getAssetInfo({ id: result.assetId ?? '' }, asUser);
      const data = files.get(result.id) ?? Buffer.alloc(0);
      expect(asset).toMatchObject({ checksum: sha1(data, 'base64'), visibility: 'timeline', fileModifiedAt: fileDate.toISOString() });
      const old = await v1.getAssetInfo({ id: asset.id }, asUser);
      expect(old).toMatchObject({ id: asset.id, checksum: asset.checksum, isArchived: false });
    }
    const video = (await Promise.all(check.results.map((result) => v3.getAssetInfo({ id: result.assetId ?? '' }, asUser)))).find(
      (asset) => asset.type === v3.AssetTypeEnum.Video,
    );
    expect(video).toMatchObject({ originalFileName: 'boat.mp4', duration: 1000 });

    const stats = await v3.getAssetStatistics({}, asUser);
    expect(stats).toEqual({ images: 3, videos: 1, total: 4 });
  });

  it('prints server-info from v3 routes', async () => {
    const config = mkdtempSync(join(tmpdir(), 'cli-v3-info-'));
    await immichCli(config, 'login', server.baseUrl, full);
    const info = await immichCli(config, 'server-info');
    expect(info.stdout).toMatch(/Version: 3\.2\.2/);
    expect(info.stdout).toMatch(/Images: \d+/);
    expect(readFileSync(join(config, 'auth.yml'), 'utf8')).toContain(full);
  });

  it('stops, as against Immich, when the key lacks a permission the command needs', async () => {
    const config = mkdtempSync(join(tmpdir(), 'cli-v3-narrow-'));
    // The CLI's first call is GET /users/me: Immich's 403 for the key, printed as the CLI prints it.
    const login = await immichFails(config, 'login', server.baseUrl, readOnly);
    expect(login.code).toBe(1);
    expect(login.stderr).toMatch(/Failed to connect to server .*: 403/);
    expect(login.stderr).toContain('"message": "Missing required permission: user.read"');

    await immichCli(config, 'login', server.baseUrl, noUpload);
    const root = mkdtempSync(join(tmpdir(), 'cli-v3-narrow-files-'));
    writeLibrary(root);
    const upload = await immichFails(config, 'upload', '--recursive', root);
    expect(upload.code).toBe(1);
    expect(upload.stdout).toMatch(/Missing required permission: "asset\.upload"/);
  });
});
