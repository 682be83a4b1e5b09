import type { ActivityView } from '../../model/activity.ts';
import { mapUserV3, type UserResponseDto } from './user.response.ts';

export interface ActivityResponseDto {
  id: string;
  createdAt: string;
  type: 'comment' | 'like';
  user: UserResponseDto;
  assetId: string | null;
  comment: string | null;
}

/** v3's statistics count likes too. */
export interface ActivityStatisticsResponseDto {
  comments: number;
  likes: number;
}

/** Immich v3's `mapActivity`. */
export const mapActivityV3 = ({ activity, user }: ActivityView): ActivityResponseDto => ({
  id: activity.id,
  createdAt: activity.createdAt,
  type: activity.isLiked ? 'like' : 'comment',
  user: mapUserV3(user),
  assetId: activity.assetId,
  comment: activity.comment,
});
