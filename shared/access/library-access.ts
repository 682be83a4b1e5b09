/** Access to libraries: a user uploads into their own upload library only. */
import { noAccess, type Permission } from './permission.ts';

/** A library the caller may upload into: their own upload library. */
export const requireLibrary = (permission: Permission, libraryId: string, user: { defaultLibraryId: string }): void => {
  if (libraryId !== user.defaultLibraryId) throw noAccess(permission);
};
