/**
 * Immich v3.2's own user and preferences (`@immich/sdk` 3.2.2: UserAdminResponseDto,
 * UserUpdateMeDto, UserPreferencesResponseDto, UserPreferencesUpdateDto), over the same user as
 * v1.100's `/user` routes.
 */
import * as v from 'valibot';
import type { License } from '../../model/license.ts';
import { limits } from '../../model/limits.ts';
import type { PreferencesChange, UserPreferences } from '../../model/preferences.ts';
import { sanitizeStorageLabel } from '../../model/storage-label.ts';
import type { NewUser, UserRecord } from '../../model/user.ts';
import { avatarColorFor, avatarColors } from '../common/avatar.ts';
import { email } from '../common/user.ts';
import { dto, optional, uuidV4 } from '../common.ts';
import { boolean, integer, isoDate, object, picklist, pinCode, stringToBool, text } from './common.ts';

const avatarColor = v.picklist(avatarColors, `$property must be one of: ${avatarColors.join(', ')}`);
/** An optional group of optional fields (zod's `.optional()` objects). */
const group = <const E extends v.ObjectEntries>(entries: E) =>
  v.optional(
    v.object(
      Object.fromEntries(Object.entries(entries).map(([key, schema]) => [key, v.optional(schema)])) as {
        [K in keyof E]: v.OptionalSchema<E[K], undefined>;
      },
      '$property must be an object',
    ),
  );

/** PUT /users/me: a new email (lower-cased), name, password (v3 marks it deprecated; it still works) or avatar colour. */
export const UserUpdateMeDto = dto({
  email: v.optional(email()),
  password: v.optional(v.pipe(text(limits.password), v.minLength(1, '$property must not be empty'))),
  name: v.optional(text(limits.name)),
  avatarColor: optional(avatarColor),
});

/** PUT /users/me/preferences: any field of any group; unknown groups and fields are dropped, as zod's objects strip them. */
export const UserPreferencesUpdateDto = v.pipe(
  dto({
    albums: group({ defaultAssetOrder: v.picklist(['asc', 'desc'], '$property must be asc or desc') }),
    avatar: group({ color: avatarColor }),
    cast: group({ gCastEnabled: boolean }),
    download: group({ archiveSize: integer(1), includeEmbeddedVideos: boolean }),
    emailNotifications: group({ enabled: boolean, albumInvite: boolean, albumUpdate: boolean }),
    folders: group({ enabled: boolean, sidebarWeb: boolean }),
    memories: group({ enabled: boolean, duration: integer(1), sidebarWeb: boolean }),
    people: group({ enabled: boolean, sidebarWeb: boolean, minimumFaces: integer(1) }),
    purchase: group({
      showSupportBadge: boolean,
      hideBuyButtonUntil: v.pipe(v.string('$property must be a string'), v.isoTimestamp('$property must be an ISO date-time')),
    }),
    ratings: group({ enabled: boolean }),
    recentlyAdded: group({ sidebarWeb: boolean }),
    sharedLinks: group({ enabled: boolean, sidebarWeb: boolean }),
    tags: group({ enabled: boolean, sidebarWeb: boolean }),
  }),
  v.transform((input): PreferencesChange => input),
);

const storageLabel = v.optional(
  v.nullable(
    v.pipe(
      text(limits.keyValue),
      v.transform((label: string) => sanitizeStorageLabel(label)),
    ),
  ),
);
/**
 * Immich's `z.int().min(0)`: zod 4's `int()` is a safe integer, so 2^53 and more are a 400 there
 * too (here they were a 500: the DynamoDB SDK refuses to write them).
 */
const quota = v.optional(v.nullable(integer(0)));
const required = (max: number) => v.pipe(text(max), v.minLength(1, '$property must not be empty'));

/**
 * POST /admin/users (`UserAdminCreateDto`); `notify` is read and ignored (no e-mail is sent here).
 * `pinCode` is the user's first PIN code of the locked folder (null: none).
 */
export const UserAdminCreateDto = v.pipe(
  v.object(
    {
      email: email(),
      name: required(limits.name),
      password: required(limits.password),
      avatarColor: optional(avatarColor),
      isAdmin: v.optional(boolean),
      notify: v.optional(boolean),
      pinCode: v.optional(v.nullable(pinCode)),
      quotaSizeInBytes: quota,
      shouldChangePassword: v.optional(boolean),
      storageLabel,
    },
    '$property must be an object',
  ),
  v.transform(({ notify: _notify, avatarColor: color, ...user }): NewUser => ({ ...user, avatarColor: color ?? undefined })),
);

/**
 * PUT /admin/users/:id (`UserAdminUpdateDto`), as the one change v1.100's PUT /user makes;
 * `pinCode` sets the user's PIN code, null resets it (the admin page's "Reset PIN code").
 */
export const UserAdminUpdateDto = v.object(
  {
    email: v.optional(email()),
    name: v.optional(required(limits.name)),
    password: v.optional(required(limits.password)),
    avatarColor: optional(avatarColor),
    isAdmin: v.optional(boolean),
    pinCode: v.optional(v.nullable(pinCode)),
    quotaSizeInBytes: quota,
    shouldChangePassword: v.optional(boolean),
    storageLabel,
  },
  '$property must be an object',
);

/** GET /admin/users `?id=&withDeleted=`. */
export const UserAdminSearchDto = v.object(
  { id: v.optional(v.pipe(v.string(), v.regex(uuidV4, '$property must be a UUID'))), withDeleted: v.optional(stringToBool) },
  '$property must be an object',
);

/** DELETE /admin/users/:id `{force}`. */
export const UserAdminDeleteDto = v.object({ force: v.optional(boolean) }, '$property must be an object');

/** PUT /users/me/onboarding. */
export const OnboardingDto = v.object({ isOnboarded: boolean }, '$property must be an object');

export interface OnboardingResponseDto {
  isOnboarded: boolean;
}

export type UserAvatarColor = (typeof avatarColors)[number];

export interface UserAdminResponseDto {
  avatarColor: UserAvatarColor;
  clusterGroupId: string;
  createdAt: string;
  deletedAt: string | null;
  email: string;
  id: string;
  isAdmin: boolean;
  license: License | null;
  name: string;
  oauthId: string;
  profileChangedAt: string;
  profileImagePath: string;
  quotaSizeInBytes: number | null;
  quotaUsageInBytes: number | null;
  shouldChangePassword: boolean;
  status: UserRecord['status'];
  storageLabel: string | null;
  updatedAt: string;
}

/**
 * v3's `mapUserAdmin`, with the user's product key if they activated one; `clusterGroupId` (3.2's groups of
 * users who share face clusters) is the user's own id: each user is a group of one.
 * `profileChangedAt` is when the user last changed, a picture change included.
 */
export const mapUserAdminV3 = (user: UserRecord): UserAdminResponseDto => ({
  avatarColor: user.avatarColor ?? avatarColorFor(user.email),
  clusterGroupId: user.id,
  createdAt: user.createdAt,
  deletedAt: user.deletedAt,
  email: user.email,
  id: user.id,
  isAdmin: user.isAdmin,
  license: user.license,
  name: user.name,
  oauthId: user.oauthId,
  profileChangedAt: user.updatedAt,
  profileImagePath: user.profileImagePath,
  quotaSizeInBytes: user.quotaSizeInBytes,
  quotaUsageInBytes: user.quotaUsageInBytes,
  shouldChangePassword: user.shouldChangePassword,
  status: user.status,
  storageLabel: user.storageLabel,
  updatedAt: user.updatedAt,
});

export type UserPreferencesResponseDto = UserPreferences;

const dayMs = 86_400_000;

/**
 * `CalendarHeatmapDto`: the days (by default the 52 weeks up to today) and what to count by. The
 * answer has a day each, so the days are at most `limits.heatmapDays`, `to` being today when
 * absent (Immich has no bound; docs/immich-compatibility.md, "Users").
 */
export const CalendarHeatmapDto = v.pipe(
  object({ from: v.optional(isoDate), to: v.optional(isoDate), type: v.optional(picklist(['Upload', 'Taken'] as const)) }),
  v.forward(
    v.check((dto) => !dto.from || !dto.to || dto.from <= dto.to, 'from must be before to'),
    ['from'],
  ),
  v.forward(
    v.check((dto) => {
      if (!dto.from) return true;
      const to = dto.to ? Date.parse(dto.to) : Date.parse(new Date().toISOString().slice(0, 10));
      return (to - Date.parse(dto.from)) / dayMs + 1 <= limits.heatmapDays;
    }, `from must be at most ${limits.heatmapDays} days before to (today when absent)`),
    ['from'],
  ),
);
