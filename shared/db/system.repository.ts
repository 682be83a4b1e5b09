import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type License, LicenseSchema } from '../model/license.ts';
import { codec } from './codec.ts';
import { getItem } from './get.ts';
import { keys } from './keys.ts';
import { deleteWrite, putWrite, updateWrite, writeOne } from './transact.ts';

/** Whether an admin exists (the guard item the admin's sign-up writes). */
export const hasAdmin = async (): Promise<boolean> => (await getItem(keys.admin())) !== undefined;

/** Whether the admin finished onboarding (Immich's `admin-onboarding` system metadata). */
export const isOnboarded = async (): Promise<boolean> => (await getItem(keys.adminOnboarding()))?.isOnboarded === true;

/** The admin's user id, once there is one (the guard item names it). */
export const adminId = async (): Promise<string | undefined> => {
  const guard = await getItem(keys.admin());
  return typeof guard?.userId === 'string' ? guard.userId : undefined;
};

/** Records whether the admin finished onboarding (v3 can undo it); the same again changes nothing. */
export const setOnboarded = async (isOnboarded = true): Promise<void> => {
  await writeOne(putWrite({ ...keys.adminOnboarding(), type: 'systemMetadata', isOnboarded, updatedAt: new Date().toISOString() }));
};

const licenseCodec = codec('serverLicense', LicenseSchema);

/** The server's product key (Immich's `license` system metadata), if one was activated. */
export const getServerLicense = async (): Promise<License | undefined> => {
  const item = await getItem(keys.serverLicense());
  return item ? licenseCodec.read(item) : undefined;
};

/** Activates the server's product key, replacing any before it. */
export const putServerLicense = async (license: License): Promise<void> => {
  await writeOne(putWrite({ ...keys.serverLicense(), type: 'serverLicense', ...license }));
};

export const deleteServerLicense = async (): Promise<void> => {
  await writeOne(deleteWrite(keys.serverLicense()));
};

/**
 * Claims a nightly slot (the instant the nightly tasks were due) for one run: true for the first
 * caller, false when this slot or a later one was claimed already (a retry, a concurrent tick).
 * With `cleanup` (the night's clean-up is on), the slot's trash and user purge is marked pending
 * in the same write, until a run finishes it (`finishNightlyCleanup`).
 */
export const claimNightlySlot = async (slot: string, cleanup = false): Promise<boolean> => {
  try {
    await writeOne(
      updateWrite(
        keys.nightlyTasks(),
        `SET #type = :type, lastSlot = :slot, claimedAt = :now${cleanup ? ', pendingCleanup = :slot' : ' REMOVE pendingCleanup'}`,
        {
          condition: 'attribute_not_exists(lastSlot) OR lastSlot < :slot',
          names: { '#type': 'type' },
          values: { ':type': 'systemMetadata', ':slot': slot, ':now': new Date().toISOString() },
        },
      ),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
};

/** The slot whose trash and user purge a night's run left unfinished, if any (one GetItem). */
export const pendingNightlyCleanup = async (): Promise<string | undefined> => {
  const pending = (await getItem(keys.nightlyTasks()))?.pendingCleanup;
  return typeof pending === 'string' ? pending : undefined;
};

/** The slot's purge is done (unless a later night's claim replaced it meanwhile). */
export const finishNightlyCleanup = async (slot: string): Promise<void> => {
  try {
    await writeOne(
      updateWrite(keys.nightlyTasks(), 'REMOVE pendingCleanup', { condition: 'pendingCleanup = :slot', values: { ':slot': slot } }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
};
