/**
 * The v3 web app's pages for `npm run e2e:web` (test/web/e2e-web.ts picks this run when the build's
 * `_app/version.json` says 2.x or later): Immich's current web app (v3.x), built by the user,
 * driven page by page in headless Chromium against this API. The library is seeded through
 * @immich/sdk 3.2.2 as the app's own clients would make it; the run then goes through the pages
 * the issue lists: login, the timeline and a photo, a video, memories, an album shared with a
 * second user who comments, a shared link as a visitor, the locked folder (its PIN set in the app,
 * a photo moved in, gone from the timeline), a stack, tags, the trash, user settings, the admin's
 * pages.
 */
import {
  AlbumUserRole,
  AssetEditAction,
  AssetVisibility,
  addAssetsToAlbum,
  addUsersToAlbum,
  createActivity,
  createAlbum,
  createMemory,
  createSharedLink,
  createStack,
  createUserAdmin,
  createWorkflow,
  deleteAssets,
  editAsset,
  getAllPeople,
  getAssetInfo,
  getConfig,
  getUniqueOriginalPaths,
  login,
  MemoryType,
  ReactionType,
  SharedLinkType,
  setUserOnboarding,
  tagAssets,
  updateAdminOnboarding,
  updateAssets,
  updateConfig,
  upsertTags,
  WorkflowTrigger,
} from '@immich/sdk-v3';
import type { BrowserContext, Page } from 'playwright-core';
import { type SdkUser, sdkUpload } from '../support/sdk.ts';
import { makeVideo } from '../support/videos.ts';
import { detectedPerson, offlineMapStyle, uploadPeoplePhotos, uploadSeedPhotos } from './seed-photos.ts';

export interface RunV3 {
  origin: string;
  admin: SdkUser;
  email: string;
  password: string;
  open: (label: string) => Promise<{ context: BrowserContext; page: Page }>;
  decodedImages: (page: Page, part: string, count?: number) => Promise<number>;
  screenshot: (page: Page, name: string) => Promise<void>;
  problems: string[];
}

const friend = { email: 'friend@example.com', password: 'friend-password', name: 'Friend' };

/** The library: photos on three days (two with Ada's face), a video, a stack, a tag, a memory, an album shared with a friend who commented, its link, a photo in the trash. */
const seed = async ({ admin }: RunV3) => {
  await updateAdminOnboarding({ adminOnboardingUpdateDto: { isOnboarded: true } }, admin);
  await setUserOnboarding({ onboardingDto: { isOnboarded: true } }, admin);
  // The map's styles: ones the browser needs no network for (the app loads them from these URLs).
  const config = await getConfig(admin);
  await updateConfig(
    { adminConfigDto: { ...config, map: { enabled: true, lightStyle: offlineMapStyle('light'), darkStyle: offlineMapStyle('dark') } } },
    admin,
  );
  const ids = await uploadSeedPhotos(admin, 8, 'v3-photo-');
  await uploadPeoplePhotos(admin, 'v3-photo-');
  const videoId = await sdkUpload(admin, makeVideo({ creationTime: '2024-03-20T10:00:00Z' }), 'v3-video.mp4');

  await createUserAdmin({ userAdminCreateDto: { ...friend, shouldChangePassword: false } }, admin);
  const { accessToken, userId: friendId } = await login(
    { loginCredentialDto: { email: friend.email, password: friend.password } },
    { baseUrl: admin.baseUrl },
  );
  const friendUser: SdkUser = { baseUrl: admin.baseUrl, headers: { Authorization: `Bearer ${accessToken}` } };
  await setUserOnboarding({ onboardingDto: { isOnboarded: true } }, friendUser);

  const album = await createAlbum(
    { createAlbumDto: { albumName: 'Summer', description: 'Made by npm run e2e:web (v3)', albumUsers: [] } },
    admin,
  );
  await addAssetsToAlbum({ id: album.id, bulkIdsDto: { ids: ids.slice(0, 4) } }, admin);
  await addUsersToAlbum({ id: album.id, addUsersDto: { albumUsers: [{ userId: friendId, role: AlbumUserRole.Editor }] } }, admin);
  await createActivity({ activityCreateDto: { albumId: album.id, type: ReactionType.Comment, comment: 'What a summer!' } }, friendUser);
  await createActivity({ activityCreateDto: { albumId: album.id, type: ReactionType.Like } }, friendUser);
  const link = await createSharedLink(
    { sharedLinkCreateDto: { type: SharedLinkType.Album, albumId: album.id, showMetadata: true } },
    admin,
  );

  const stack = await createStack({ stackCreateDto: { assetIds: [ids[4] ?? '', ids[5] ?? ''] } }, admin);
  const [tag] = await upsertTags({ tagUpsertDto: { tags: ['Trips/Rome'] } }, admin);
  await tagAssets({ id: tag?.id ?? '', bulkIdsDto: { ids: [ids[0] ?? '', ids[2] ?? ''] } }, admin);
  const today = new Date();
  await createMemory(
    {
      memoryCreateDto: {
        type: MemoryType.OnThisDay,
        data: { year: today.getUTCFullYear() - 2 },
        memoryAt: new Date(Date.UTC(today.getUTCFullYear() - 2, today.getUTCMonth(), today.getUTCDate())).toISOString(),
        assetIds: ids.slice(0, 3),
      },
    },
    admin,
  );
  await deleteAssets({ assetBulkDeleteDto: { ids: [ids[7] ?? ''] } }, admin);

  // The previews are made in the background: wait for the last upload's (and the video's), and for Ada's face.
  for (let tries = 0; ; tries++) {
    const [last, video, people] = await Promise.all([
      getAssetInfo({ id: ids[6] ?? '' }, admin),
      getAssetInfo({ id: videoId }, admin),
      getAllPeople({ withHidden: false }, admin),
    ]);
    const ada = people.people.find((person) => person.name === 'Ada Lovelace');
    if (last.thumbhash && last.exifInfo?.city && video.thumbhash && ada && detectedPerson(people)) break;
    if (tries > 150) throw new Error('the seeded assets got no previews');
    await new Promise((done) => setTimeout(done, 200));
  }
  // A photo turned a quarter in the editor: the media function makes its edited files (the thumbhash changes with them).
  const unedited = (await getAssetInfo({ id: ids[1] ?? '' }, admin)).thumbhash;
  await editAsset(
    { id: ids[1] ?? '', assetEditsCreateDto: { edits: [{ action: AssetEditAction.Rotate, parameters: { angle: 90 } }] } },
    admin,
  );
  for (let tries = 0; (await getAssetInfo({ id: ids[1] ?? '' }, admin)).thumbhash === unedited; tries++) {
    if (tries > 150) throw new Error('the edited photo got no edited files');
    await new Promise((done) => setTimeout(done, 200));
  }
  await createWorkflow(
    { workflowCreateDto: { trigger: WorkflowTrigger.AssetCreate, name: 'On upload', description: 'Made by npm run e2e:web' } },
    admin,
  );
  return { ids, videoId, albumId: album.id, key: link.key, stackId: stack.id };
};

const thumbnail = (id: string) => `/api/assets/${id}/thumbnail`;

export const runV3 = async (run: RunV3): Promise<void> => {
  const { origin, admin, decodedImages, screenshot } = run;
  const library = await seed(run);
  console.log(
    `Seeded ${library.ids.length} photos, a video, an album shared with a friend, a link, a stack, a tag, a memory; opening ${origin}/ (v3)`,
  );

  const { page } = await run.open('owner');
  await page.goto(`${origin}/`);
  await page.waitForURL('**/auth/login**');
  await page.locator('#email').waitFor();
  await screenshot(page, 'v3-1-login');
  await page.fill('#email', run.email);
  await page.fill('#password', run.password);
  await page.click('button[type=submit]');
  await page.waitForURL('**/photos');
  // Seven photos, the video, one of the stack's two hidden: seven thumbnails (the trashed one is not there).
  console.log(`    timeline: ${await decodedImages(page, '/api/assets/', 7)} thumbnails decoded`);
  await screenshot(page, 'v3-2-timeline');

  // A photo, then the video, in the viewer.
  await page
    .locator(`img[src*="${thumbnail(library.ids[6] ?? '')}"]`)
    .first()
    .click();
  await page.locator('#immich-asset-viewer').waitFor();
  await decodedImages(page, `/api/assets/${library.ids[6]}/thumbnail?size=preview`);
  await screenshot(page, 'v3-3-photo');
  await page.keyboard.press('Escape');
  await page.locator('#immich-asset-viewer').waitFor({ state: 'detached' });
  await page
    .locator(`img[src*="${thumbnail(library.videoId)}"]`)
    .first()
    .click();
  await page.locator('#immich-asset-viewer video').waitFor();
  await screenshot(page, 'v3-4-video');
  await page.keyboard.press('Escape');
  await page.locator('#immich-asset-viewer').waitFor({ state: 'detached' });

  // The edited photo: the viewer shows it turned (its edited preview).
  await page.goto(`${origin}/photos/${library.ids[1]}`);
  await page.locator('#immich-asset-viewer').waitFor();
  await decodedImages(page, `/api/assets/${library.ids[1]}/thumbnail?size=preview`);
  await screenshot(page, 'v3-32-edited-photo');

  // The stack: its primary in the viewer shows its other photo below.
  await page.goto(`${origin}/photos/${library.ids[4]}`);
  await page.locator('#immich-asset-viewer').waitFor();
  await decodedImages(page, thumbnail(library.ids[5] ?? ''));
  await screenshot(page, 'v3-5-stack');

  // Memories: the lane on the photos page, then the memory itself.
  await page.goto(`${origin}/photos`);
  await page
    .getByText(/2 years ago/i)
    .first()
    .waitFor();
  await screenshot(page, 'v3-6-memory-lane');
  await page
    .getByText(/2 years ago/i)
    .first()
    .click();
  await page.waitForURL('**/memory**');
  await decodedImages(page, '/api/assets/');
  await screenshot(page, 'v3-7-memory');

  // The album, shared with the friend, with their comment.
  await page.goto(`${origin}/albums/${library.albumId}`);
  await page
    .getByText(/4 items/)
    .first()
    .waitFor();
  await decodedImages(page, '/api/assets/', 3);
  await screenshot(page, 'v3-8-album');

  // Tags, people, explore, the trash.
  await page.goto(`${origin}/tags?path=Trips/Rome`);
  await decodedImages(page, '/api/assets/', 2);
  await screenshot(page, 'v3-9-tag');
  await page.goto(`${origin}/trash`);
  await decodedImages(page, thumbnail(library.ids[7] ?? ''));
  await screenshot(page, 'v3-10-trash');
  // Ada (a face region) and the woman the media function found in three photos (docs/faces.md).
  await page.goto(`${origin}/people`);
  await decodedImages(page, '/api/people/', 2);
  await screenshot(page, 'v3-11-people');

  // The locked folder: the PIN code set in the app, then the unlock, then a photo moved in.
  await page.goto(`${origin}/locked`);
  await page.waitForURL('**/auth/pin-prompt**');
  const pinInputs = page.locator('form input');
  await pinInputs.first().waitFor();
  await screenshot(page, 'v3-12-pin-setup');
  await pinInputs.nth(0).click();
  await page.keyboard.type('123456');
  await pinInputs.nth(1).click();
  await page.keyboard.type('123456');
  await page.locator('form button[type=submit]').click();
  const unlock = page.locator('input').first();
  await page
    .getByText(/enter your pin/i)
    .first()
    .waitFor();
  await unlock.click();
  await page.keyboard.type('123456');
  await page.waitForURL('**/locked');
  await updateAssets({ assetBulkUpdateDto: { ids: [library.ids[3] ?? ''], visibility: AssetVisibility.Locked } }, admin);
  await page.reload();
  await decodedImages(page, thumbnail(library.ids[3] ?? ''));
  await screenshot(page, 'v3-13-locked-folder');
  await page.goto(`${origin}/photos`);
  await decodedImages(page, '/api/assets/', 6);
  if ((await page.locator(`img[src*="${thumbnail(library.ids[3] ?? '')}"]`).count()) > 0)
    run.problems.push('the locked photo is still in the timeline');

  // The other pages of the sidebar, and a search.
  for (const [path, name] of [
    ['/sharing', 'v3-25-sharing'],
    ['/favorites', 'v3-26-favorites'],
    ['/archive', 'v3-27-archive'],
    ['/utilities', 'v3-28-utilities'],
    [`/search?query=${encodeURIComponent(JSON.stringify({ originalFileName: 'v3-photo' }))}`, 'v3-29-search'],
  ] as const) {
    await page.goto(`${origin}${path}`);
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
  }

  // Utilities' large files: the library's photos, largest first.
  await page.goto(`${origin}/utilities/large-files`);
  await decodedImages(page, '/api/assets/', 3);
  await screenshot(page, 'v3-23-large-files');

  // Utilities' folders: the tree of the originals' folders, then one folder's photos.
  await page.goto(`${origin}/folders`);
  await page.waitForLoadState('networkidle');
  await screenshot(page, 'v3-30-folders');
  const [folder] = await getUniqueOriginalPaths(admin);
  if (folder) {
    await page.goto(`${origin}/folders?path=${encodeURIComponent(folder)}`);
    await decodedImages(page, '/api/assets/', 1);
    await screenshot(page, 'v3-31-folder');
  } else run.problems.push('no folder listed');

  // Places (docs/places.md): one photo a city, then the map with a marker per photo (no tiles: the
  // runs have no network; the style is a background).
  await page.goto(`${origin}/places`);
  await page.getByText('Ralston').first().waitFor();
  await decodedImages(page, '/api/assets/', 2);
  await screenshot(page, 'v3-33-places');
  const markers = page.waitForResponse((reply) => reply.url().includes('/api/map/markers') && reply.status() === 200);
  await page.goto(`${origin}/map`);
  const marked = (await (await markers).json()) as unknown[];
  // Six photos with a position in the timeline (of eight: one is in the trash, one in the locked folder).
  if (marked.length !== 6) run.problems.push(`the map has ${marked.length} markers for 6 photos`);
  await page.locator('canvas').first().waitFor();
  await screenshot(page, 'v3-34-map');
  // Explore's places row: Ralston has five photos in the timeline.
  await page.goto(`${origin}/explore`);
  await page.getByText('Ralston').first().waitFor();
  await decodedImages(page, '/api/assets/', 1);
  await screenshot(page, 'v3-24-explore');

  // User settings (sessions, API keys), then the admin's pages.
  await page.goto(`${origin}/user-settings`);
  await page
    .getByText(/api keys/i)
    .first()
    .waitFor();
  await screenshot(page, 'v3-14-user-settings');
  for (const [path, name] of [
    ['/admin/users', 'v3-15-admin-users'],
    ['/admin/system-settings', 'v3-16-admin-settings'],
    ['/admin/queues', 'v3-17-admin-queues'],
    ['/admin/server-status', 'v3-18-admin-server-status'],
    ['/admin/maintenance', 'v3-21-admin-maintenance'],
    ['/workflows', 'v3-22-workflows'],
  ] as const) {
    await page.goto(`${origin}${path}`);
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
  }

  // The friend sees the shared album and its comment; a visitor the link.
  const friendPage = await run.open('friend');
  await friendPage.page.goto(`${origin}/auth/login`);
  await friendPage.page.fill('#email', friend.email);
  await friendPage.page.fill('#password', friend.password);
  await friendPage.page.click('button[type=submit]');
  await friendPage.page.waitForURL('**/photos');
  await friendPage.page.waitForLoadState('networkidle');
  await friendPage.page.goto(`${origin}/albums/${library.albumId}`);
  await decodedImages(friendPage.page, '/api/assets/', 3);
  await screenshot(friendPage.page, 'v3-19-shared-album');
  const visitor = await run.open('visitor');
  await visitor.page.goto(`${origin}/share/${library.key}`);
  await visitor.page.getByText('Made by npm run e2e:web (v3)').waitFor();
  await decodedImages(visitor.page, '/api/assets/', 2);
  await screenshot(visitor.page, 'v3-20-shared-link');
};
