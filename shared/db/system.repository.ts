import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { getItem } from './get.ts';
import { keys } from './keys.ts';

/** Whether an admin exists (the guard item the admin's sign-up writes). */
export const hasAdmin = async (): Promise<boolean> => (await getItem(keys.admin())) !== undefined;

/** Whether the admin finished onboarding (Immich's `admin-onboarding` system metadata). */
export const isOnboarded = async (): Promise<boolean> => (await getItem(keys.adminOnboarding()))?.isOnboarded === true;

/** Records that the admin finished onboarding; again changes nothing. */
export const setOnboarded = async (): Promise<void> => {
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...keys.adminOnboarding(), type: 'systemMetadata', isOnboarded: true, updatedAt: new Date().toISOString() },
    }),
  );
};
