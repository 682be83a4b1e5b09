import { randomUUID } from 'node:crypto';
import { Invalid, NotFound } from '../core/errors.ts';
import * as userRepo from '../db/user.repository.ts';
import { extensionOf, isProfileImage, mimeTypeOf } from '../domain/media-types.ts';
import type { ServedFile } from '../model/file.ts';
import type { UploadedFile } from '../model/upload.ts';
import type { Auth, UserRecord } from '../model/user.ts';
import { originalsStore } from '../storage/originals.ts';
import { cacheControl } from './file.service.ts';
import { findOrFail } from './user/user.service.ts';
import { unlessRefused } from './user-refusals.ts';

/** Immich's multipart field for a profile image. */
export const profileImageField = 'file';

/** Refuses a file that is not a profile image type as it starts (Immich's upload interceptor). */
export const acceptProfileImage = (_field: string, fileName: string): void => {
  if (!isProfileImage(fileName)) throw new Invalid(`Unsupported file type ${fileName}`);
};

/**
 * POST /user/profile-image: the caller's new picture is stored (`profile/<userId>/<uuid>.<ext>`),
 * recorded on the user, and the previous one removed. `profileImagePath` is that storage key.
 */
export const createProfileImage = async (auth: Auth, file: UploadedFile | undefined): Promise<UserRecord> => {
  if (!file) throw new Invalid('file should not be empty');
  const user = await findOrFail(auth.user.id);
  const store = await originalsStore();
  const key = `profile/${user.id}/${randomUUID()}${extensionOf(file.fileName)}`;
  const stored = await store.put(key, file.data, mimeTypeOf(file.fileName));
  let updated: UserRecord;
  try {
    updated = unlessRefused(await userRepo.update(user, { profileImagePath: key }));
  } catch (error) {
    await store.delete([stored]);
    throw error;
  }
  if (user.profileImagePath) await store.delete([{ key: user.profileImagePath }]);
  return updated;
};

/** DELETE /user/profile-image: 400 without one (Immich's message), else it is cleared and removed. */
export const deleteProfileImage = async (auth: Auth): Promise<void> => {
  const user = await findOrFail(auth.user.id);
  if (user.profileImagePath === '') throw new Invalid("Can't delete a missing profile Image");
  unlessRefused(await userRepo.update(user, { profileImagePath: '' }));
  await (await originalsStore()).delete([{ key: user.profileImagePath }]);
};

/** GET /user/profile-image/:id: any signed-in user may see anyone's picture, as in Immich (served as JPEG, not cached). */
export const profileImageFile = async (id: string): Promise<ServedFile> => {
  const user = await findOrFail(id);
  if (!user.profileImagePath) throw new NotFound('User does not have a profile image');
  return { key: user.profileImagePath, contentType: 'image/jpeg', cacheControl: cacheControl.none };
};
