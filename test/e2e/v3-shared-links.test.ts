import * as v3 from '@immich/sdk-v3';
import { beforeAll, describe, expect, it } from 'vitest';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { makeJpeg } from '../support/photos.ts';
import { adminWithApiKey, type SdkUser, sdkUpload } from '../support/sdk.ts';
import { useServer } from '../support/server.ts';

/**
 * Shared links as the v3 web app makes, edits and opens them, through @immich/sdk 3.2.2 and the
 * server (the local one, or the synthesized stack's bundles in the deployed project): its forms
 * send `slug: ""` and `password: ""`; a custom URL opens the link by `?slug=`.
 */
describe('shared links through @immich/sdk 3.2.2, as the v3 web app sends them', () => {
  const server = useServer();
  let user: SdkUser;

  beforeAll(async () => {
    user = await adminWithApiKey(server.baseUrl, 'links@immich.cloud');
    await turnOffMlTasks(user, ['facialRecognition', 'ocr', 'duplicateDetection']);
  });

  const failure = async (call: Promise<unknown>): Promise<{ status: number; data: unknown }> => {
    const error = await call.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    if (!v3.isHttpError(error)) throw new Error(`expected an HTTP error, got ${String(error)}`);
    return { status: error.status, data: error.data };
  };

  it('creates a link from the form’s empty slug and password, gives it a custom URL, and a visitor opens it by the slug', async () => {
    const photo = await sdkUpload(user, makeJpeg({ width: 64, height: 48, color: [1, 120, 240] }), 'linked.jpg');
    const created = await v3.createSharedLink(
      {
        sharedLinkCreateDto: {
          type: v3.SharedLinkType.Individual,
          assetIds: [photo],
          description: '',
          password: '',
          slug: '',
          allowUpload: false,
          allowDownload: true,
          showMetadata: true,
          expiresAt: null,
        },
      },
      user,
    );
    expect(created).toMatchObject({ slug: null, password: null, type: 'INDIVIDUAL' });
    expect(created.assets.map((asset) => asset.id)).toEqual([photo]);

    // The edit page sends the whole form back; now with a custom URL.
    const edited = await v3.updateSharedLink(
      { id: created.id, sharedLinkEditDto: { description: 'From the SDK', password: '', slug: 'sdk-trip', showMetadata: true } },
      user,
    );
    expect(edited).toMatchObject({ slug: 'sdk-trip', description: 'From the SDK', password: null });

    // A visitor with the custom URL: the link (its key too), and its photo by the slug.
    const visited = await v3.getMySharedLink({ slug: 'sdk-trip' }, { baseUrl: server.baseUrl });
    expect(visited).toMatchObject({ id: created.id, key: created.key, slug: 'sdk-trip' });
    expect((await v3.getAssetInfo({ id: photo, slug: 'sdk-trip' }, { baseUrl: server.baseUrl })).id).toBe(photo);

    // Another link may not take it: Immich's 400.
    const other = await failure(
      v3.createSharedLink({ sharedLinkCreateDto: { type: v3.SharedLinkType.Individual, assetIds: [photo], slug: 'sdk-trip' } }, user),
    );
    expect(other).toEqual({ status: 400, data: { message: 'Failed to save shared link' } });

    // Deleted: the slug opens nothing.
    await v3.removeSharedLink({ id: created.id }, user);
    expect((await failure(v3.getMySharedLink({ slug: 'sdk-trip' }, { baseUrl: server.baseUrl }))).status).toBe(401);
  });

  it('keeps a password link’s password through the edit form, which sends back the password the link was read with', async () => {
    const photo = await sdkUpload(user, makeJpeg({ width: 64, height: 48, color: [240, 10, 10] }), 'guarded.jpg');
    const created = await v3.createSharedLink(
      { sharedLinkCreateDto: { type: v3.SharedLinkType.Individual, assetIds: [photo], password: 'hunter2', slug: '' } },
      user,
    );
    const read = await v3.getSharedLinkById({ id: created.id }, user);
    await v3.updateSharedLink(
      { id: created.id, sharedLinkEditDto: { description: 'edited', password: read.password ?? '', slug: '' } },
      user,
    );
    expect((await failure(v3.getMySharedLink({ key: created.key }, { baseUrl: server.baseUrl }))).status).toBe(401);
    const unlocked = await v3.sharedLinkLogin(
      { key: created.key, sharedLinkLoginDto: { password: 'hunter2' } },
      { baseUrl: server.baseUrl },
    );
    expect(unlocked).toMatchObject({ id: created.id, description: 'edited' });
  });
});
