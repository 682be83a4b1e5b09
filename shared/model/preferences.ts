/**
 * A user's preferences, as Immich v3 keeps them: every group with its default, and stored only
 * where the user chose otherwise (docs/data-model.md, the user item's `preferences`). Two choices
 * belong to the user itself, so that v1.100's view reads them too: memories on or off
 * (`memoriesEnabled`, v1.100's `memoriesEnabled`) and the avatar's colour (`avatarColor`).
 */
import type { UserRecord } from './user.ts';

const gibibyte = 1024 ** 3;

/** Immich v3's defaults (`memories.sidebarWeb` is in the 3.2.2 SDK's answer; false as the other sidebars). */
export const defaultPreferences = () => ({
  albums: { defaultAssetOrder: 'desc' as 'asc' | 'desc' },
  cast: { gCastEnabled: false },
  download: { archiveSize: 4 * gibibyte, includeEmbeddedVideos: false },
  emailNotifications: { enabled: true, albumInvite: true, albumUpdate: true },
  folders: { enabled: false, sidebarWeb: false },
  memories: { enabled: true, duration: 5, sidebarWeb: false },
  people: { enabled: true, sidebarWeb: false, minimumFaces: 3 },
  purchase: { showSupportBadge: true, hideBuyButtonUntil: '2022-02-12T00:00:00.000Z' },
  ratings: { enabled: false },
  recentlyAdded: { sidebarWeb: false },
  sharedLinks: { enabled: true, sidebarWeb: false },
  tags: { enabled: false, sidebarWeb: false },
});
export type UserPreferences = ReturnType<typeof defaultPreferences>;
export type PreferenceGroup = keyof UserPreferences;

/** What a request changes: any field of any group, and the avatar's colour. */
export type PreferencesChange = {
  [G in PreferenceGroup]?: { [K in keyof UserPreferences[G]]?: UserPreferences[G][K] | undefined } | undefined;
} & {
  avatar?: { color?: UserRecord['avatarColor'] | undefined } | undefined;
};

/** The stored choices: only values that differ from the defaults, by group. */
export type StoredPreferences = Record<string, Record<string, unknown>>;
