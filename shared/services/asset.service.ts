import { requireAsset, requireAssets, requireSharedAsset } from '../access/asset-access.ts';
import { accessLost, Permission } from '../access/permission.ts';
import { inBatches } from '../core/concurrency.ts';
import * as albumExitRepo from '../db/album-exit.repository.ts';
import * as assetRepo from '../db/asset.repository.ts';
import { doneWith } from '../db/outcome.ts';
import * as personRepo from '../db/person.repository.ts';
import * as termRepo from '../db/term.repository.ts';
import { editedDates } from '../domain/date-edit.ts';
import { mimeTypeOf } from '../domain/media-types.ts';
import { checksumHex } from '../domain/search.ts';
import { assetTerms } from '../domain/terms.ts';
import {
  type AssetDetail,
  type AssetEdit,
  type AssetInfo,
  type AssetRecord,
  type AssetWithFaces,
  visibilityAfter,
  type YearAgo,
} from '../model/asset.ts';
import type { PersonRecord } from '../model/person.ts';
import type { AssetViews } from '../model/realtime.ts';
import type { UploadCheck } from '../model/upload.ts';
import type { Auth } from '../model/user.ts';
import { raise } from '../realtime/outbox.ts';
import { detailOf, ownerDetails } from './asset-detail.ts';
import { takenOnThisDay } from './on-this-day.ts';
import { timelinePartners } from './partner.service.ts';
import { placeAsset } from './places.service.ts';
import { leaveStackWhenLocked } from './stack.service.ts';

/**
 * POST /asset/bulk-upload-check: for each file, `accept`, or `reject` as a `duplicate` of the
 * owner's existing asset. Checksums are SHA-1, hex (40) or base64 (28).
 */
export const checkBulkUpload = async (auth: Auth, assets: readonly { id: string; checksum: string }[]): Promise<UploadCheck[]> => {
  const found = await assetRepo.findByChecksums(
    auth.user.id,
    assets.map((asset) => checksumHex(asset.checksum)),
  );
  return assets.map(({ id, checksum }) => ({ id, duplicateOf: found.get(checksumHex(checksum)) }));
};

/** GET /asset/:id: the owner's asset with EXIF, owner, tags and people. */
export const getAssetInfo = async (auth: Auth, id: string): Promise<AssetInfo> => {
  if (auth.sharedLink) {
    // A visitor, as Immich answers one: the reduced asset when the link hides metadata, else the
    // asset with its EXIF but without its owner and people.
    const { found, link } = await requireSharedAsset(auth, Permission.AssetRead, id);
    return { view: link.showExif ? 'exif' : 'sanitized', asset: found.asset, originalMimeType: mimeTypeOf(found.asset.originalFileName) };
  }
  const { asset, faces } = await requireAsset(auth, Permission.AssetRead, id);
  // Someone else's asset (through a shared album): without its people and tags, as Immich answers.
  const own = asset.ownerId === auth.user.id;
  const detail = await detailOf(asset, own ? faces : [], { tags: own });
  return { view: 'full', ...detail, tags: detail.tags ?? [], originalMimeType: mimeTypeOf(asset.originalFileName) };
};

/** The EXIF fields Immich lets a user edit, as given (absent and null leave a field alone); the date is `dateChangesOf`'s. */
const exifChangesOf = (dto: AssetEdit) => ({
  ...(dto.description !== undefined && dto.description !== null ? { description: dto.description } : {}),
  ...(dto.latitude !== undefined ? { latitude: dto.latitude } : {}),
  ...(dto.longitude !== undefined ? { longitude: dto.longitude } : {}),
  ...(dto.rating !== undefined ? { rating: dto.rating } : {}),
});

/** Whether the edit changes the date taken (given, moved, or put in another zone). */
const changesDate = (dto: AssetEdit): boolean =>
  (dto.dateTimeOriginal !== undefined && dto.dateTimeOriginal !== null) ||
  (dto.dateTimeRelative !== undefined && dto.dateTimeRelative !== 0) ||
  dto.timeZone !== undefined;

/**
 * The date taken an edit gives the asset as it is now (a relative move or a new zone starts from
 * its current date), with `fileCreatedAt` and `localDateTime` as Immich's metadata job sets them
 * from it (shared/domain/date-edit.ts); nothing when it changes no date.
 */
const dateChangesOf = (asset: AssetRecord, dto: AssetEdit) => {
  const dates = changesDate(dto)
    ? editedDates(asset, {
        dateTimeOriginal: dto.dateTimeOriginal ?? undefined,
        relativeMinutes: dto.dateTimeRelative,
        timeZone: dto.timeZone,
      })
    : undefined;
  if (!dates) return { exif: {}, asset: {} };
  return {
    exif: { dateTimeOriginal: dates.dateTimeOriginal, timeZone: dates.timeZone },
    asset: { fileCreatedAt: dates.fileCreatedAt, localDateTime: dates.localDateTime },
  };
};

/**
 * Writes the flags, EXIF changes and dates on the asset as stored: a concurrent change (an album
 * joined, a trash, another date) means a fresh read and a retry. Undefined once the asset is
 * gone; else the asset written and the one it was written over.
 */
const writeChanges = (found: AssetWithFaces, dto: AssetEdit, exifChanges: ReturnType<typeof exifChangesOf>) =>
  assetRepo.withFreshAsset(found, async (fresh) => {
    const dates = dateChangesOf(fresh.asset, dto);
    const exif = { ...exifChanges, ...dates.exif };
    const written = await assetRepo.update(fresh.asset, fresh.faces, {
      ...(dto.isFavorite !== undefined && dto.isFavorite !== null ? { isFavorite: dto.isFavorite } : {}),
      ...(visibilityAfter(fresh.asset.visibility, dto) !== fresh.asset.visibility
        ? { visibility: visibilityAfter(fresh.asset.visibility, dto) }
        : {}),
      ...(Object.keys(exif).length > 0 ? { exif: { ...fresh.asset.exif, ...exif } } : {}),
      ...dates.asset,
    });
    return written.ok ? doneWith({ asset: written.value, faces: fresh.faces, before: fresh.asset }) : written;
  });

/**
 * A new date taken moves the asset's text-search postings (sorted by date: docs/data-model.md,
 * "Search"): every word it has now is written at the new date, then those at the old one go.
 */
const afterRedating = async (asset: AssetRecord, before: AssetRecord, people?: readonly PersonRecord[]): Promise<void> => {
  if (asset.fileCreatedAt === before.fileCreatedAt) return;
  const names = (people ?? (await personRepo.getMany(asset.ownerId, asset.personIds))).map((person) => person.name);
  const now = assetTerms(asset, names);
  await termRepo.writePostings(asset.ownerId, termRepo.postingsOf(asset, now));
  await termRepo.deletePostings(asset.ownerId, termRepo.postingsOf(before, [...new Set([...assetTerms(before, names), ...now])]));
};

/**
 * An asset moved into the locked folder leaves every album, after its status copies say `locked`
 * (so no album shows it even before it has left: docs/immich-compatibility.md, "The locked folder"),
 * and its stack ("Stacks").
 */
const afterLocking = async (asset: AssetRecord, dto: AssetEdit): Promise<void> => {
  if (dto.visibility !== 'locked' || asset.visibility !== 'locked') return;
  // Immich's removeAssetsFromAll; the albums that showed it (the owner's, or another's it was
  // added to) show their newest remaining asset.
  for (const albumId of await albumExitRepo.leaveAllAlbums(asset.id, asset.ownerId))
    await albumExitRepo.replaceAlbumThumbnail(await albumExitRepo.albumOwnerOf(albumId, asset.ownerId), albumId, asset.id);
  await leaveStackWhenLocked(asset);
};

/**
 * A new position names the asset's place again, as Immich's metadata job does after it (here in
 * the same request: the answer already shows it; docs/places.md). The asset as it is then.
 */
const afterMoving = async (asset: AssetRecord, before: AssetRecord): Promise<AssetRecord> => {
  if (asset.exif.latitude === before.exif.latitude && asset.exif.longitude === before.exif.longitude) return asset;
  return (await placeAsset(asset.id)).asset ?? asset;
};

/**
 * PUT /asset/:id: favourite, archive, and the EXIF fields Immich lets a user edit (description,
 * date taken, position). A changed archive flag or date is copied to the asset's faces and album
 * entries in the same transaction; a new date moves it in the timeline and its counters too.
 */
export const updateAsset = async (auth: Auth, id: string, dto: AssetEdit): Promise<AssetDetail> => {
  const { asset, faces } = await requireAsset(auth, Permission.AssetUpdate, id);
  const exifChanges = exifChangesOf(dto);
  // Only the difference: the words the description adds are written before the asset (so it is
  // findable as soon as it has them), the words it drops are deleted after.
  let dropped: string[] = [];
  let people: PersonRecord[] | undefined;
  if (exifChanges.description !== undefined) {
    people = await personRepo.getMany(asset.ownerId, asset.personIds);
    const names = people.map((person) => person.name);
    const before = new Set(assetTerms(asset, names));
    const after = new Set(assetTerms({ ...asset, exif: { ...asset.exif, description: exifChanges.description } }, names));
    await termRepo.writePostings(
      auth.user.id,
      termRepo.postingsOf(
        asset,
        [...after].filter((term) => !before.has(term)),
      ),
    );
    dropped = [...before].filter((term) => !after.has(term));
  }
  const written = await writeChanges({ asset, faces }, dto, exifChanges);
  // Deleted for good by a concurrent request: as if it had never been the caller's.
  if (!written) throw accessLost(Permission.AssetUpdate);
  await afterLocking(written.asset, dto);
  if (dropped.length > 0) await termRepo.deletePostings(auth.user.id, termRepo.postingsOf(asset, dropped));
  await afterRedating(written.asset, written.before, people);
  const placed = await afterMoving(written.asset, asset);
  // The caller's own asset (only the owner may update it): with its tags, as the detail view.
  const updated = await detailOf(placed, written.faces, { tags: true, people });
  if (Object.keys(exifChanges).length > 0 || changesDate(dto))
    metadataChanged(updated.asset, async () => new Map([[updated.asset.id, updated]]));
  return updated;
};

/**
 * The owner's apps are told of an asset whose metadata changed (`on_asset_update`): where Immich
 * writes its XMP sidecar and reads the file again, then tells them (PUT /assets/:id with a
 * description, date taken, position or rating; PUT /assets, whatever it changes). Here the asset
 * is changed in the same request, and no sidecar is written: the event follows the change itself
 * (docs/immich-compatibility.md, "Realtime").
 */
const metadataChanged = (asset: AssetRecord, load: AssetViews<AssetDetail>): void =>
  raise({ kind: 'asset-updated', ownerId: asset.ownerId, assetId: asset.id, load });

/**
 * PUT /asset (`updateAssets`): favourite, archive, date taken (or v3's move by minutes and time
 * zone) and position of many assets, all the caller's (else 400 and nothing changes), each in its
 * own transaction as PUT /asset/:id writes it, a few at a time. Stacks do not exist here:
 * `stackParentId` is refused.
 */
export const updateAssets = async (auth: Auth, ids: readonly string[], dto: AssetEdit): Promise<void> => {
  const assets = await requireAssets(auth, Permission.AssetUpdate, ids);
  const exifChanges = exifChangesOf(dto);
  await inBatches(assets, 8, async (asset) => {
    const current = await assetRepo.getWithFaces(asset.id);
    // Deleted meanwhile: nothing to change.
    const written = current ? await writeChanges(current, dto, exifChanges) : undefined;
    if (written) await afterLocking(written.asset, dto);
    if (written) await afterRedating(written.asset, written.before);
    if (written && current) await afterMoving(written.asset, current.asset);
    if (written) metadataChanged(written.asset, ownerDetails);
  });
};

/** GET /asset/device/:deviceId: the `deviceAssetId` of every visible asset this device uploaded (trashed ones too, as Immich). */
export const getUserAssetsByDeviceId = async (auth: Auth, deviceId: string): Promise<string[]> =>
  (await assetRepo.listDeviceAssets(auth.user.id, deviceId)).filter((entry) => entry.isVisible).map((entry) => entry.deviceAssetId);

/** POST /asset/exist: which of the given `deviceAssetId`s of this device the server has (hidden and trashed ones too). */
export const checkExistingAssets = async (auth: Auth, dto: { deviceAssetIds: string[]; deviceId: string }): Promise<string[]> => {
  const wanted = new Set(dto.deviceAssetIds);
  return (await assetRepo.listDeviceAssets(auth.user.id, dto.deviceId)).map((entry) => entry.deviceAssetId).filter((id) => wanted.has(id));
};

/**
 * GET /asset/memory-lane?day=&month=: the caller's photos taken on this day of earlier years
 * (shared/services/on-this-day.ts), grouped by years ago (Immich's titles), newest year first;
 * with those of the partners who put theirs in the caller's timeline (as Immich).
 */
export const getMemoryLane = async (auth: Auth, dto: { day: number; month: number }): Promise<YearAgo[]> => {
  const owners = [auth.user.id, ...(await timelinePartners(auth))];
  const currentYear = new Date().getUTCFullYear();
  const byYear = await takenOnThisDay(owners, { year: currentYear, month: dto.month, day: dto.day });
  return [...byYear].sort(([a], [b]) => b - a).map(([year, assets]) => ({ yearsAgo: currentYear - year, assets }));
};
