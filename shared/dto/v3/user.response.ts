/** Immich v3.2's public view of a user (`@immich/sdk` 3.2.2: UserResponseDto): what another user may see. */
import type { UserRecord } from '../../model/user.ts';
import { type AvatarColor, avatarColorFor } from '../common/avatar.ts';

export interface UserResponseDto {
  id: string;
  name: string;
  email: string;
  profileImagePath: string;
  avatarColor: AvatarColor;
  profileChangedAt: string;
}

/** POST /users/profile-image: the caller's new picture's key, and when their profile changed. */
export interface CreateProfileImageResponseDto {
  userId: string;
  profileImagePath: string;
  profileChangedAt: string;
}

export const mapProfileImageV3 = (user: UserRecord): CreateProfileImageResponseDto => ({
  userId: user.id,
  profileImagePath: user.profileImagePath,
  profileChangedAt: user.updatedAt,
});

/** v3's `mapUser`; `profileChangedAt` is when the user last changed (a picture change included). */
export const mapUserV3 = (user: UserRecord): UserResponseDto => ({
  id: user.id,
  name: user.name,
  email: user.email,
  profileImagePath: user.profileImagePath,
  avatarColor: user.avatarColor ?? avatarColorFor(user.email),
  profileChangedAt: user.updatedAt,
});
