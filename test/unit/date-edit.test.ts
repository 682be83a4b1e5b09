import { describe, expect, it } from 'vitest';
import { editedDates } from '#shared/domain/date-edit.ts';
import { offsetAt, zoneName } from '#shared/domain/time-zones.ts';
import { assetRecord } from '../support/records.ts';

/**
 * A date taken as a user edits it (docs/immich-compatibility.md, "Editing assets and people"), the
 * rule alone: the instant, the zone and the wall-clock time an edit gives. The handler tests
 * (test/functions/date-edit.test.ts) prove both generations' routes ask it, and what follows
 * (buckets, albums, searches, sync).
 */

const owner = '00000000-0000-4000-a000-000000000001';
const taken = (dateTimeOriginal: string | null, timeZone: string | null, fileCreatedAt = '2001-01-01T00:00:00.000Z') =>
  assetRecord(owner, { fileCreatedAt, exif: { dateTimeOriginal, timeZone } });

describe('editedDates', () => {
  it('changes nothing when the edit names no date, no minutes and no zone', () => {
    expect(editedDates(taken('2022-01-01T00:00:00.000Z', 'UTC'), {})).toBeUndefined();
    expect(editedDates(taken('2022-01-01T00:00:00.000Z', 'UTC'), { relativeMinutes: 0 })).toBeUndefined();
  });

  it("takes a date with an offset as that instant, the offset as the zone (luxon's name), the wall-clock time in it", () => {
    expect(editedDates(taken('2022-08-10T03:00:00.000Z', 'UTC+9'), { dateTimeOriginal: '2019-12-31T23:30:00-05:00' })).toEqual({
      dateTimeOriginal: '2020-01-01T04:30:00.000Z',
      fileCreatedAt: '2020-01-01T04:30:00.000Z',
      timeZone: 'UTC-5',
      localDateTime: '2019-12-31T23:30:00.000Z',
    });
    expect(editedDates(taken(null, null), { dateTimeOriginal: '2018-07-04T12:00:00.000+02:00' })).toMatchObject({
      fileCreatedAt: '2018-07-04T10:00:00.000Z',
      localDateTime: '2018-07-04T12:00:00.000Z',
      timeZone: 'UTC+2',
    });
    expect(editedDates(taken(null, null), { dateTimeOriginal: '2018-07-04T12:00:00+05:30' })).toMatchObject({ timeZone: 'UTC+5:30' });
  });

  it("takes a date without an offset as UTC, shown in the photo's own zone (none: UTC's wall clock)", () => {
    expect(editedDates(taken('2022-08-10T03:00:00.000Z', 'UTC-5'), { dateTimeOriginal: '2023-03-01T02:00:00' })).toEqual({
      dateTimeOriginal: '2023-03-01T02:00:00.000Z',
      fileCreatedAt: '2023-03-01T02:00:00.000Z',
      timeZone: 'UTC-5',
      localDateTime: '2023-02-28T21:00:00.000Z',
    });
    expect(editedDates(taken(null, null), { dateTimeOriginal: '2023-03-01T02:00:00' })).toMatchObject({
      timeZone: null,
      localDateTime: '2023-03-01T02:00:00.000Z',
    });
  });

  it('moves the date taken (else the file’s date) by minutes, into an IANA zone with its daylight saving', () => {
    const moved = editedDates(taken('2022-01-30T22:00:00.000Z', 'UTC'), { relativeMinutes: 3 * 24 * 60, timeZone: 'America/New_York' });
    expect(moved).toEqual({
      dateTimeOriginal: '2022-02-02T22:00:00.000Z',
      fileCreatedAt: '2022-02-02T22:00:00.000Z',
      timeZone: 'America/New_York',
      localDateTime: '2022-02-02T17:00:00.000Z',
    });
    // In July, New York is UTC−4.
    expect(editedDates(taken('2022-07-01T12:00:00.000Z', null), { timeZone: 'America/New_York' })).toMatchObject({
      localDateTime: '2022-07-01T08:00:00.000Z',
    });
    // No date taken: the file's date is moved.
    expect(editedDates(taken(null, null, '2020-05-05T05:05:00.000Z'), { relativeMinutes: -5 })).toMatchObject({
      fileCreatedAt: '2020-05-05T05:00:00.000Z',
    });
  });

  it('keeps the instant when only the zone changes, and reads a zone it cannot name as UTC', () => {
    expect(editedDates(taken('2022-02-02T22:00:00.000Z', 'America/New_York'), { timeZone: 'Asia/Tokyo' })).toMatchObject({
      fileCreatedAt: '2022-02-02T22:00:00.000Z',
      localDateTime: '2022-02-03T07:00:00.000Z',
    });
    expect(editedDates(taken('2022-02-02T22:00:00.000Z', 'Nowhere/Atlantis'), { relativeMinutes: 60 })).toMatchObject({
      timeZone: 'Nowhere/Atlantis',
      localDateTime: '2022-02-02T23:00:00.000Z',
    });
  });
});

describe('time zones', () => {
  it("name fixed offsets as luxon does (Immich's stored zones)", () => {
    expect([0, 120, -300, 330, -570].map(zoneName)).toEqual(['UTC', 'UTC+2', 'UTC-5', 'UTC+5:30', 'UTC-9:30']);
  });

  it('give an IANA zone’s offset at an instant, daylight saving applied', () => {
    expect(offsetAt('Europe/Berlin', Date.parse('2024-01-15T12:00:00Z'))).toBe(60);
    expect(offsetAt('Europe/Berlin', Date.parse('2024-07-15T12:00:00Z'))).toBe(120);
    expect(offsetAt('Asia/Kolkata', Date.parse('2024-07-15T12:00:00.500Z'))).toBe(330);
  });
});
