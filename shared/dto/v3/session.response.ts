/** Immich v3.2's sessions (`@immich/sdk` 3.2.2: SessionResponseDto): v1.100's auth devices. */
import type { DeviceSession } from '../../model/session.ts';

export interface SessionResponseDto {
  id: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  current: boolean;
  deviceType: string;
  deviceOS: string;
  appVersion: string | null;
  isPendingSyncReset: boolean;
}

/**
 * v3's `mapSession`: when it expires (400 days after sign-in, Immich's cookie); the app's version
 * its User-Agent named; whether its app must start its sync over.
 */
export const mapSessionV3 = ({ session, current }: DeviceSession): SessionResponseDto => ({
  id: session.id,
  createdAt: session.createdAt,
  updatedAt: session.updatedAt,
  expiresAt: new Date(session.ttl * 1000).toISOString(),
  current,
  deviceType: session.deviceType,
  deviceOS: session.deviceOS,
  appVersion: session.appVersion,
  isPendingSyncReset: session.isPendingSyncReset,
});

/** POST /sessions: the new session, with its token (answered this once). */
export interface SessionCreateResponseDto extends SessionResponseDto {
  token: string;
}
