/** Reading and changing a user's preferences (shared/model/preferences.ts). */
import {
  defaultPreferences,
  type PreferenceGroup,
  type PreferencesChange,
  type StoredPreferences,
  type UserPreferences,
} from '../model/preferences.ts';
import type { UserRecord } from '../model/user.ts';

const groups = Object.keys(defaultPreferences()) as PreferenceGroup[];

/** The values of `preferences` that differ from the defaults (those `keep` keeps), by group. */
const differences = (
  preferences: UserPreferences,
  keep: (group: PreferenceGroup, key: string) => boolean = () => true,
): StoredPreferences => {
  const defaults = defaultPreferences();
  const stored: StoredPreferences = {};
  for (const group of groups) {
    const chosen = Object.entries(preferences[group]).filter(
      ([key, value]) => keep(group, key) && value !== (defaults[group] as Record<string, unknown>)[key],
    );
    if (chosen.length > 0) stored[group] = Object.fromEntries(chosen);
  }
  return stored;
};

/** The user's preferences: the defaults, their stored choices over them, and the two kept on the user. */
export const preferencesOf = (user: Pick<UserRecord, 'memoriesEnabled' | 'preferences'>): UserPreferences => {
  const preferences = defaultPreferences();
  const stored = user.preferences ?? {};
  for (const group of groups) {
    const target = preferences[group] as Record<string, unknown>;
    for (const [key, value] of Object.entries(stored[group] ?? {})) if (key in target && value !== undefined) target[key] = value;
  }
  preferences.memories.enabled = user.memoriesEnabled;
  return preferences;
};

/**
 * The user's fields after `change` (Immich's merge, then only what differs from the defaults is
 * kept): `preferences`, and `memoriesEnabled` / `avatarColor` when the change names them.
 */
export const applyPreferences = (
  user: Pick<UserRecord, 'memoriesEnabled' | 'preferences'>,
  change: PreferencesChange,
): { preferences: UserPreferences; fields: Partial<Pick<UserRecord, 'preferences' | 'memoriesEnabled' | 'avatarColor'>> } => {
  const preferences = preferencesOf(user);
  for (const group of groups) {
    const target = preferences[group] as Record<string, unknown>;
    for (const [key, value] of Object.entries(change[group] ?? {})) if (key in target && value !== undefined) target[key] = value;
  }
  // Memories on or off is kept on the user (v1.100's `memoriesEnabled`), not among the stored choices.
  const stored = differences(preferences, (group, key) => !(group === 'memories' && key === 'enabled'));
  // A user who never chose anything keeps no stored preferences.
  const fields: Partial<Pick<UserRecord, 'preferences' | 'memoriesEnabled' | 'avatarColor'>> =
    user.preferences === undefined && Object.keys(stored).length === 0 ? {} : { preferences: stored };
  if (change.memories?.enabled !== undefined) fields.memoriesEnabled = change.memories.enabled;
  if (change.avatar?.color !== undefined) fields.avatarColor = change.avatar.color;
  return { preferences, fields };
};

/**
 * The preferences as Immich stores them (its `user_metadata` row, what its sync stream sends the
 * apps): every value that differs from the default, memories off included; undefined for a user
 * who never chose anything (Immich has no row for them).
 */
export const storedPreferencesOf = (user: Pick<UserRecord, 'memoriesEnabled' | 'preferences'>): StoredPreferences | undefined => {
  if (user.preferences === undefined && user.memoriesEnabled) return undefined;
  return differences(preferencesOf(user));
};
