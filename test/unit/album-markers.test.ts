import { afterEach, describe, expect, it } from 'vitest';
import * as albumSyncRepo from '#shared/db/album-sync.repository.ts';
import { changeIdAt } from '#shared/db/changes.ts';
import type { Membership } from '#shared/db/sync-relations.repository.ts';
import * as syncRelationsRepo from '#shared/db/sync-relations.repository.ts';

/**
 * When the sync stream may skip an album's scope (docs/data-model.md, "Album summaries"): its
 * marker must be at or before the checkpoint, and at least the settling time before it, since two
 * writes of one scope can land in the opposite order of their ids and leave the earlier one.
 */
const t0 = Date.UTC(2026, 10, 28, 12);
const album = (entries: string | undefined): Membership => ({
  albumId: 'album',
  ownerId: 'owner',
  createId: changeIdAt(t0 - 60_000),
  albumCreateId: changeIdAt(t0 - 60_000),
  updateId: changeIdAt(t0 - 60_000),
  sharedUserIds: [],
  markers: entries === undefined ? {} : { entries },
  ownerKnown: true,
  entryOwners: [],
  album: () => {
    throw new Error('not read');
  },
});

describe('albumUnchangedSince', () => {
  const settle = process.env.SYNC_SETTLE_MS;
  afterEach(() => {
    if (settle === undefined) delete process.env.SYNC_SETTLE_MS;
    else process.env.SYNC_SETTLE_MS = settle;
  });

  it('reads an album whose marker is unknown, after the checkpoint, or with no checkpoint', () => {
    process.env.SYNC_SETTLE_MS = '0';
    expect(syncRelationsRepo.albumUnchangedSince(album(undefined), 'entries', changeIdAt(t0))).toBe(false);
    expect(syncRelationsRepo.albumUnchangedSince(album(changeIdAt(t0 + 1)), 'entries', changeIdAt(t0))).toBe(false);
    expect(syncRelationsRepo.albumUnchangedSince(album(changeIdAt(t0 - 10)), 'entries', undefined)).toBe(false);
    expect(syncRelationsRepo.albumUnchangedSince(album(''), 'entries', undefined)).toBe(true);
  });

  it('skips a marker at or before the checkpoint only when it is the settling time before it', () => {
    process.env.SYNC_SETTLE_MS = '2000';
    // A write one millisecond before the checkpoint may be the earlier of two that raced.
    expect(syncRelationsRepo.albumUnchangedSince(album(changeIdAt(t0 - 1)), 'entries', changeIdAt(t0))).toBe(false);
    expect(syncRelationsRepo.albumUnchangedSince(album(changeIdAt(t0 - 1999)), 'entries', changeIdAt(t0))).toBe(false);
    expect(syncRelationsRepo.albumUnchangedSince(album(changeIdAt(t0 - 2000)), 'entries', changeIdAt(t0))).toBe(true);
    expect(syncRelationsRepo.albumUnchangedSince(album(changeIdAt(t0 - 86_400_000)), 'entries', changeIdAt(t0))).toBe(true);
    process.env.SYNC_SETTLE_MS = '0';
    expect(syncRelationsRepo.albumUnchangedSince(album(changeIdAt(t0)), 'entries', changeIdAt(t0))).toBe(true);
  });
});

/**
 * A user's album sync marker (shared/db/album-sync.repository.ts): trusted only once a sync learnt
 * it, and quiet only when settled before the session's last completed sync: two writers' marker
 * moves racing can leave the earlier id, whose writer's change a sync completed just after it may
 * not have read.
 */
describe("a user's album sync marker", () => {
  const settle = process.env.SYNC_SETTLE_MS;
  afterEach(() => {
    if (settle === undefined) delete process.env.SYNC_SETTLE_MS;
    else process.env.SYNC_SETTLE_MS = settle;
  });

  it('is trusted once learnt, with whether an album has another user', () => {
    expect(albumSyncRepo.trusted(undefined)).toBe(false);
    expect(albumSyncRepo.trusted({ changeId: changeIdAt(t0) })).toBe(false);
    expect(albumSyncRepo.trusted({ changeId: changeIdAt(t0), shared: false })).toBe(false);
    expect(albumSyncRepo.trusted({ changeId: changeIdAt(t0), learnt: true })).toBe(false);
    expect(albumSyncRepo.trusted({ changeId: changeIdAt(t0), shared: false, learnt: true })).toBe(true);
    expect(albumSyncRepo.trusted({ changeId: changeIdAt(t0), shared: true, learnt: true })).toBe(true);
  });

  it('is settled before a completed sync only the settling time before it', () => {
    process.env.SYNC_SETTLE_MS = '2000';
    const completed = changeIdAt(t0);
    // The later of two raced moves (1.5 s apart at most, here) may be the one the marker lost.
    expect(syncRelationsRepo.settledBefore(changeIdAt(t0 - 1500), completed)).toBe(false);
    expect(syncRelationsRepo.settledBefore(changeIdAt(t0 + 1), completed)).toBe(false);
    expect(syncRelationsRepo.settledBefore(changeIdAt(t0 - 2000), completed)).toBe(true);
    expect(syncRelationsRepo.settledBefore(changeIdAt(t0 - 2000), undefined)).toBe(false);
    process.env.SYNC_SETTLE_MS = '0';
    expect(syncRelationsRepo.settledBefore(completed, completed)).toBe(true);
  });
});
