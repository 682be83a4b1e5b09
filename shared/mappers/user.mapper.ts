import type { UserRecord } from '../model/user.ts';
import type { UserResponse } from '../schemas/user.ts';

const avatarColors = ['primary', 'pink', 'red', 'yellow', 'blue', 'green', 'purple', 'orange', 'gray', 'amber'] as const;

/** Immich derives the colour from the email: the sum of its code points, modulo 10. */
export const avatarColorFor = (email: string): UserResponse['avatarColor'] => {
  let sum = 0;
  for (const character of email) sum += character.codePointAt(0) ?? 0;
  return avatarColors[sum % avatarColors.length] ?? 'primary';
};

/** The one way a user leaves the API (Immich's `mapUser`). */
export const mapUser = (user: UserRecord): UserResponse => ({
  id: user.id,
  email: user.email,
  name: user.name,
  profileImagePath: user.profileImagePath,
  avatarColor: user.avatarColor ?? avatarColorFor(user.email),
  storageLabel: user.storageLabel,
  shouldChangePassword: user.shouldChangePassword,
  isAdmin: user.isAdmin,
  createdAt: user.createdAt,
  deletedAt: user.deletedAt,
  updatedAt: user.updatedAt,
  oauthId: user.oauthId,
  memoriesEnabled: user.memoriesEnabled,
  quotaSizeInBytes: user.quotaSizeInBytes,
  quotaUsageInBytes: user.quotaUsageInBytes,
  status: user.status,
});
