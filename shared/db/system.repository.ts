import { getItem } from './get.ts';
import { keys } from './keys.ts';
import { putWrite, writeOne } from './transact.ts';

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
