import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type License, LicenseSchema } from '../model/license.ts';
import { codec } from './codec.ts';
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import { done, type Outcome, refused } from './outcome.ts';
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

/** What a night's claim marks pending, until a run finishes it. */
export interface NightlyWork {
  /** The trash and user purge (the clean-up is on): the slot whose cut-offs it runs from. */
  cleanup?: string;
  /** The "on this day" memories (their generation is on): the instant they are made as of (the claiming tick's). */
  memories?: string;
}

/**
 * Claims a nightly slot (the instant the nightly tasks were due) for one run: done for the first
 * caller, `claimed` when this slot or a later one was claimed already (a retry, a concurrent tick).
 * The slot's work is marked pending in the same write (`pendingCleanup`, `pendingMemories`;
 * an earlier night's left is replaced), until a run finishes each (`finishNightlyWork`).
 */
export const claimNightlySlot = async (slot: string, work: NightlyWork = {}): Promise<Outcome<'claimed'>> => {
  const set = ['#type = :type', 'lastSlot = :slot', 'claimedAt = :now'];
  const remove: string[] = [];
  const values: Record<string, unknown> = { ':type': 'systemMetadata', ':slot': slot, ':now': new Date().toISOString() };
  for (const [attribute, mark] of [
    ['pendingCleanup', work.cleanup],
    ['pendingMemories', work.memories],
  ] as const) {
    if (mark === undefined) remove.push(attribute);
    else {
      set.push(`${attribute} = :${attribute}`);
      values[`:${attribute}`] = mark;
    }
  }
  try {
    await writeOne(
      updateWrite(keys.nightlyTasks(), `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`, {
        condition: 'attribute_not_exists(lastSlot) OR lastSlot < :slot',
        names: { '#type': 'type' },
        values,
      }),
    );
    return done();
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return refused('claimed');
    throw error;
  }
};

/** The work a night's run left unfinished, if any (one GetItem). */
export const pendingNightlyWork = async (): Promise<NightlyWork> => {
  const item = await getItem(keys.nightlyTasks());
  return {
    ...(typeof item?.pendingCleanup === 'string' ? { cleanup: item.pendingCleanup } : {}),
    ...(typeof item?.pendingMemories === 'string' ? { memories: item.pendingMemories } : {}),
  };
};

/** One part of a night's work is done (unless a later night's claim replaced its mark meanwhile). */
export const finishNightlyWork = async (part: keyof NightlyWork, mark: string): Promise<void> => {
  const attribute = part === 'cleanup' ? 'pendingCleanup' : 'pendingMemories';
  try {
    await writeOne(
      updateWrite(keys.nightlyTasks(), `REMOVE ${attribute}`, { condition: `${attribute} = :mark`, values: { ':mark': mark } }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
};
