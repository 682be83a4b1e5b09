/**
 * Product keys (Immich's licences, docs/immich-compatibility.md "Product keys"): the server's,
 * the admin's to activate, and each user's own, as Immich's server and user services keep them.
 * A key is accepted only when its signature verifies under the public keys this deployment was
 * given; without them none is.
 */

import { licensePublicKeys } from '../core/env.ts';
import { Invalid, NotFound } from '../core/errors.ts';
import * as systemRepo from '../db/system.repository.ts';
import * as userRepo from '../db/user.repository.ts';
import { isSignedBy } from '../domain/license.ts';
import type { License } from '../model/license.ts';
import type { Auth } from '../model/user.ts';
import { getMyUserInfo } from './user/user.service.ts';
import { unlessRefused } from './user-refusals.ts';

const invalid = () => new Invalid('Invalid license key');
const activated = (licenseKey: string, activationKey: string): License => ({
  licenseKey,
  activationKey,
  activatedAt: new Date().toISOString(),
});

/** GET /server/license: 404 when none was activated (the web app reads that as unlicensed). */
export const getServerLicense = async (): Promise<License> => {
  const license = await systemRepo.getServerLicense();
  if (!license) throw new NotFound();
  return license;
};

/** PUT /server/license: a server key (`IMSV-`) signed under the server's public key. */
export const setServerLicense = async (licenseKey: string, activationKey: string): Promise<License> => {
  if (!licenseKey.startsWith('IMSV-') || !isSignedBy(licenseKey, activationKey, licensePublicKeys().server)) throw invalid();
  const license = activated(licenseKey, activationKey);
  await systemRepo.putServerLicense(license);
  return license;
};

export const deleteServerLicense = (): Promise<void> => systemRepo.deleteServerLicense();

/** Whether the server has a product key (GET /server/about's `licensed`). */
export const isServerLicensed = async (): Promise<boolean> => (await systemRepo.getServerLicense()) !== undefined;

/** GET /users/me/license: 404 when the user activated none. */
export const getUserLicense = async (auth: Auth): Promise<License> => {
  const { license } = await getMyUserInfo(auth);
  if (!license) throw new NotFound();
  return license;
};

/** PUT /users/me/license: a client (`IMCL-`) or server (`IMSV-`) key, signed under either public key. */
export const setUserLicense = async (auth: Auth, licenseKey: string, activationKey: string): Promise<License> => {
  if (!licenseKey.startsWith('IMCL-') && !licenseKey.startsWith('IMSV-')) throw invalid();
  const { client, server } = licensePublicKeys();
  if (!isSignedBy(licenseKey, activationKey, client) && !isSignedBy(licenseKey, activationKey, server)) throw invalid();
  const license = activated(licenseKey, activationKey);
  unlessRefused(await userRepo.update(await getMyUserInfo(auth), { license }));
  return license;
};

/** DELETE /users/me/license. */
export const deleteUserLicense = async (auth: Auth): Promise<void> => {
  const user = await getMyUserInfo(auth);
  if (user.license) unlessRefused(await userRepo.removeMetadata(user, 'license', { license: null }));
};
