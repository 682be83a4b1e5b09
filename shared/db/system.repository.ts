import { getItem } from './get.ts';
import { keys } from './keys.ts';
import { putWrite, writeOne } from './transact.ts';

/** Whether an admin exists (the guard item the admin's sign-up writes). */
export const hasAdmin = async (): Promise<boolean> => (await getItem(keys.admin())) !== undefined;

/** Whether the admin finished onboarding (Immich's `admin-onboarding` system metadata). */
export const isOnboarded = async (): Promise<boolean> => (await getItem(keys.adminOnboarding()))?.isOnboarded === true;

/** Records that the admin finished onboarding; again changes nothing. */
export const setOnboarded = async (): Promise<void> => {
  await writeOne(putWrite({ ...keys.adminOnboarding(), type: 'systemMetadata', isOnboarded: true, updatedAt: new Date().toISOString() }));
};
