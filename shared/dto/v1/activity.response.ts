import type { ActivityView } from '../../model/activity.ts';
import { avatarColorFor } from '../common/avatar.ts';
import type { UserResponse } from './user.response.ts';

/** v1.100's `UserDto` (mapSimpleUser): who wrote an activity. */
export type SimpleUserDto = Pick<UserResponse, 'id' | 'name' | 'email' | 'profileImagePath' | 'avatarColor'>;

export interface ActivityResponseDto {
  id: string;
  createdAt: string;
  type: 'comment' | 'like';
  user: SimpleUserDto;
  assetId: string | null;
  comment: string | null;
}

/** v1.100's `ActivityStatisticsResponseDto`: the comments only. */
export interface ActivityStatisticsResponseDto {
  comments: number;
}

/** Immich v1.100's `mapActivity`. */
export const mapActivity = ({ activity, user }: ActivityView): ActivityResponseDto => ({
  id: activity.id,
  assetId: activity.assetId,
  createdAt: activity.createdAt,
  comment: activity.comment,
  type: activity.isLiked ? 'like' : 'comment',
  user: {
    id: user.id,
    name: user.name,
    email: user.email,
    profileImagePath: user.profileImagePath,
    avatarColor: user.avatarColor ?? avatarColorFor(user.email),
  },
});
