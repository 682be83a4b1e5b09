import { expect } from 'vitest';
import { handler as addAssetsHandler } from '#functions/album/add-assets-to-album.ts';
import { handler as addUsersHandler } from '#functions/album/add-users-to-album.ts';
import { handler as createAlbumHandler } from '#functions/album/create-album.ts';
import { handler as getAlbumInfoHandler } from '#functions/album/get-album-info.ts';
import { handler as removeAssetsHandler } from '#functions/album/remove-asset-from-album.ts';
import { handler as deleteAssetsHandler } from '#functions/asset/delete-assets.ts';
import { handler as getAssetInfoHandler } from '#functions/asset/get-asset-info.ts';
import { handler as updateAssetHandler } from '#functions/asset/update-asset.ts';
import { handler as getAllPeopleHandler } from '#functions/person/get-all-people.ts';
import { handler as updateAssetsHandler } from '#functions/v3/asset/update-assets.ts';
import { bearer } from './accounts.ts';
import { invoke } from './invoke.ts';
import { makeJpeg, type PhotoSpec } from './photos.ts';
import { cliFields, upload } from './uploads.ts';

/** Uploads a photo (with a client date, used when the file has none) and returns its id. */
export const addPhoto = async (token: string, spec: PhotoSpec = {}, date = new Date('2024-01-02T03:04:05.000Z')): Promise<string> => {
  const data = makeJpeg(spec);
  const reply = await upload(token, { data, fields: cliFields('photo.jpg', data.length, date) });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id as string;
};

export const createAlbum = async (token: string, body: Record<string, unknown>) => {
  const reply = await invoke(createAlbumHandler, { method: 'POST', path: '/api/album', headers: bearer(token), body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
};

export const personNamed = async (token: string, name: string): Promise<{ id: string; name: string; thumbnailPath: string }> => {
  const reply = await invoke(getAllPeopleHandler, { path: '/api/person', query: { withHidden: 'true' }, headers: bearer(token) });
  const person = reply.body.people.find((p: { name: string }) => p.name === name);
  expect(person, `person ${name}`).toBeDefined();
  return person;
};

export const trash = (token: string, ids: string[], force = false) =>
  invoke(deleteAssetsHandler, { method: 'DELETE', path: '/api/asset', headers: bearer(token), body: force ? { ids, force } : { ids } });

export const updateAsset = (token: string, id: string, body: Record<string, unknown>) =>
  invoke(updateAssetHandler, { method: 'PUT', path: `/api/asset/${id}`, headers: bearer(token), pathParameters: { id }, body });

/** PUT /album/:id/assets. */
/** PUT /album/:id/users: shares the album with the users. */
export const shareAlbum = (token: string, id: string, userIds: readonly string[]) =>
  invoke(addUsersHandler, {
    method: 'PUT',
    path: `/api/album/${id}/users`,
    pathParameters: { id },
    headers: bearer(token),
    body: { sharedUserIds: userIds },
  });

/** PUT /assets (v3) with `visibility: locked`: the assets into the locked folder (the session must be unlocked: unlockSession). */
export const lock = (token: string, ids: readonly string[]) =>
  invoke(updateAssetsHandler, { method: 'PUT', path: '/api/assets', headers: bearer(token), body: { ids, visibility: 'locked' } });

export const addToAlbum = (token: string, id: string, ids: unknown) =>
  invoke(addAssetsHandler, {
    method: 'PUT',
    path: `/api/album/${id}/assets`,
    headers: bearer(token),
    pathParameters: { id },
    body: { ids },
  });

/** DELETE /album/:id/assets. */
export const removeFromAlbum = (token: string, id: string, ids: unknown) =>
  invoke(removeAssetsHandler, {
    method: 'DELETE',
    path: `/api/album/${id}/assets`,
    headers: bearer(token),
    pathParameters: { id },
    body: { ids },
  });

/** GET /album/:id. */
export const albumInfo = (token: string, id: string, query: Record<string, string> = {}) =>
  invoke(getAlbumInfoHandler, { path: `/api/album/${id}`, query, headers: bearer(token), pathParameters: { id } });

/** GET /asset/:id. */
export const assetInfo = (token: string, id: string) =>
  invoke(getAssetInfoHandler, { path: `/api/asset/${id}`, headers: bearer(token), pathParameters: { id } });
