import type { AssetRecord } from '../model/asset.ts';
import { readEditedDate } from '../model/date-taken.ts';
import { offsetAt, zoneName } from './time-zones.ts';

/**
 * A date taken as a user edits it (docs/immich-compatibility.md, "Editing assets and people"),
 * as Immich does it: PUT /assets/:id stores the instant and, when the text carries a UTC offset,
 * that offset as the time zone (`UTC+2`, luxon's name); PUT /assets also moves dates by minutes
 * (`dateTimeRelative`) and sets an IANA zone (`timeZone`). Immich's metadata job then reads the
 * sidecar it wrote and sets `fileCreatedAt` (the instant) and `localDateTime` (the wall-clock time
 * in that zone, written as UTC): here all of it is done in the request.
 */
export interface DateEdit {
  /** ISO 8601, as validated by the DTO; with or without an offset (without: read as UTC, as Immich's database reads it). */
  dateTimeOriginal?: string | undefined;
  /** Minutes added to the date taken (v3's bulk `dateTimeRelative`). */
  relativeMinutes?: number | undefined;
  /** An IANA zone (v3's bulk `timeZone`). */
  timeZone?: string | undefined;
}

/** The four values a date edit sets on an asset. */
export interface EditedDates {
  dateTimeOriginal: string;
  timeZone: string | null;
  fileCreatedAt: string;
  localDateTime: string;
}

const minute = 60_000;

/** A fixed-offset zone's name as Immich stores it (`UTC`, `UTC+2`, `UTC-5:30`), read back as minutes. */
const fixedZone = /^UTC(?:([+-])(\d{1,2})(?::(\d{2}))?)?$/;

/**
 * Minutes east of UTC that a zone observes at an instant: a fixed offset by its name, an IANA zone
 * by its rules (daylight saving). Undefined for a name that is neither.
 */
const zoneOffsetAt = (zone: string, instant: number): number | undefined => {
  const fixed = fixedZone.exec(zone);
  if (fixed) return fixed[1] ? (fixed[1] === '-' ? -1 : 1) * (Number(fixed[2]) * 60 + Number(fixed[3] ?? 0)) : 0;
  try {
    return offsetAt(zone, instant);
  } catch {
    return undefined;
  }
};

/**
 * The dates an edit gives an asset, or undefined when it changes no date. The instant is the
 * one given (else the asset's date taken), moved by `relativeMinutes`; the zone is the one given,
 * else the offset the text was written with, else the asset's own (unknown: the wall-clock time
 * is UTC's, as Immich's metadata job reads a date without a zone).
 */
export const editedDates = (asset: Pick<AssetRecord, 'fileCreatedAt' | 'exif'>, edit: DateEdit): EditedDates | undefined => {
  const given = edit.dateTimeOriginal === undefined ? undefined : readEditedDate(edit.dateTimeOriginal);
  const relative = edit.relativeMinutes ?? 0;
  if (!given && relative === 0 && edit.timeZone === undefined) return undefined;
  const base = given?.instant ?? Date.parse(asset.exif.dateTimeOriginal ?? asset.fileCreatedAt);
  const instant = base + relative * minute;
  const timeZone = edit.timeZone ?? (given?.offset === undefined ? asset.exif.timeZone : zoneName(given.offset));
  const offset = timeZone ? (zoneOffsetAt(timeZone, instant) ?? 0) : 0;
  const taken = new Date(instant).toISOString();
  return {
    dateTimeOriginal: taken,
    timeZone: timeZone ?? null,
    fileCreatedAt: taken,
    localDateTime: new Date(instant + offset * minute).toISOString(),
  };
};
