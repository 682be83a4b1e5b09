import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as addUsersHandler } from '#functions/album/add-users-to-album.ts';
import { handler as createPartnerHandler } from '#functions/partner/create-partner.ts';
import { handler as createStackHandler } from '#functions/v3/stack/create-stack.ts';
import { handler as streamHandler } from '#functions/v3/sync/get-sync-stream.ts';
import { bearer, freshUser, login, setupAccounts } from '../support/accounts.ts';
import { tableNames } from '../support/app-store.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, addToAlbum, createAlbum, updateAsset } from '../support/library.ts';
import { SyncClient, type SyncLine, type SyncTransport, sendAcks, serverFailure } from '../support/sync-client.ts';

/**
 * The sync stream ends itself before its function's deadline or Lambda's 200 MB an answer
 * (shared/http/stream-handler.ts, docs/deployment.md "The sync stream"): cleanly, after a whole
 * run of lines and without SyncCompleteV1, so the app (which applies and acks every line of a
 * stream that ended cleanly, and counts the sync a success) goes on from its acks next time. Its
 * tables must come out as one uninterrupted sync leaves them.
 */

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const savedMaxBytes = process.env.STREAM_MAX_BYTES;
afterEach(() => {
  if (savedMaxBytes === undefined) delete process.env.STREAM_MAX_BYTES;
  else process.env.STREAM_MAX_BYTES = savedMaxBytes;
});

/** The stream as Lambda calls it, its context saying `remainingMs` is left; each answer's lines kept in `streams`. */
const transport = (token: string, streams: SyncLine[][], options: { remainingMs?: number; headers?: Record<string, string> } = {}) =>
  ({
    stream: async (body, { headers }) => {
      const reply = await invoke(streamHandler, {
        method: 'POST',
        path: '/api/sync/stream',
        headers: { ...bearer(token), ...options.headers, ...headers },
        body,
        ...(options.remainingMs === undefined ? {} : { remainingMs: options.remainingMs }),
      });
      serverFailure(reply);
      const lines: SyncLine[] = reply.status === 200 ? reply.body : [];
      streams.push(lines);
      return { status: reply.status, body: reply.body, lines, complete: reply.complete };
    },
    ack: (acks) => sendAcks(token, acks),
  }) satisfies SyncTransport;

/** The app's syncs (each one it counts a success) until one ends with SyncCompleteV1; at most `limit`. */
const syncUntilComplete = async (client: SyncClient, streams: SyncLine[][], limit = 400): Promise<void> => {
  for (let sync = 0; sync < limit; sync++) {
    await client.sync();
    if (streams.at(-1)?.at(-1)?.type === 'SyncCompleteV1') return;
  }
  throw new Error(`no SyncCompleteV1 after ${limit} syncs`);
};

/** Every table of the app, as rows by key. */
const tablesOf = (client: SyncClient) => Object.fromEntries(tableNames.map((name) => [name, Object.fromEntries(client.store.table(name))]));

const share = async (from: string, to: string) => {
  const reply = await invoke(createPartnerHandler, {
    method: 'POST',
    path: `/api/partner/${to}`,
    pathParameters: { id: to },
    headers: bearer(from),
  });
  expect(reply.status).toBe(201);
};

/**
 * A family's small library seen by `owner`: their photos (EXIF, faces and so people, a stack), a
 * partner's, an album of theirs shared with a member and the member's album shared with them.
 */
const family = async (name: string) => {
  const [owner, partner, member] = await Promise.all(
    ['Owner', 'Partner', 'Member'].map((role) => freshUser(accounts.admin.accessToken, `${name}${role}`)),
  );
  if (!owner || !partner || !member) throw new Error('no users');
  const mine: string[] = [];
  for (let i = 0; i < 6; i++)
    mine.push(
      await addPhoto(owner.accessToken, {
        color: [40 * i, 10, 90],
        make: 'EndCam',
        description: `photo ${i}`,
        ...(i % 2 === 0 ? { mwgFaces: [{ name: i < 3 ? 'Ada' : 'Bo', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] } : {}),
      }),
    );
  const stacked = await invoke(createStackHandler, {
    method: 'POST',
    path: '/api/stacks',
    headers: bearer(owner.accessToken),
    body: { assetIds: [mine[4], mine[5]] },
  });
  expect(stacked.status).toBe(201);
  for (let i = 0; i < 3; i++) await addPhoto(partner.accessToken, { color: [10, 40 * i, 90] });
  await share(partner.accessToken, owner.id);
  const album = await createAlbum(owner.accessToken, { albumName: 'Ours', assetIds: mine.slice(0, 3) });
  const theirs = await createAlbum(member.accessToken, {
    albumName: 'Theirs',
    assetIds: [await addPhoto(member.accessToken, { color: [1, 99, 1] }), await addPhoto(member.accessToken, { color: [1, 1, 99] })],
  });
  for (const [token, albumId, userId] of [
    [owner.accessToken, album.id, member.id],
    [member.accessToken, theirs.id, owner.id],
  ] as const) {
    const reply = await invoke(addUsersHandler, {
      method: 'PUT',
      path: `/api/album/${albumId}/users`,
      pathParameters: { id: albumId },
      headers: bearer(token),
      body: { sharedUserIds: [userId] },
    });
    expect(reply.status).toBe(200);
  }
  return { owner, partner, member, mine, album, theirs };
};

/** A new session of the user (its own checkpoints), as a phone signing in. */
const session = async (user: { email: string }, name: string) =>
  (await login({ email: user.email, password: `password-${name}` })).accessToken;

describe('the sync stream ends before its deadline and the app converges', () => {
  it('with no time left, each stream ends after its first run of one ack, and the app’s tables end as one whole sync leaves them', async () => {
    const { owner, partner, member, mine, theirs } = await family('Deadline');
    const streams: SyncLine[][] = [];
    // Lambda's context says a second is left: less than the margin, so every stream ends at its first clean point.
    const client = new SyncClient(transport(await session(owner, 'DeadlineOwner'), streams, { remainingMs: 1_000 }));
    // Part of the way, the library changes: a favourite, a new photo of the partner's, another in the member's album.
    for (let sync = 0; sync < 10; sync++) await client.sync();
    expect((await updateAsset(owner.accessToken, mine[1] ?? '', { isFavorite: true })).status).toBe(200);
    await addPhoto(partner.accessToken, { color: [50, 50, 50] });
    const later = await addPhoto(member.accessToken, { color: [60, 60, 60] });
    expect((await addToAlbum(member.accessToken, theirs.id, [later])).status).toBe(200);
    await syncUntilComplete(client, streams);

    // Many streams, each ended early (no SyncCompleteV1) after one line of data (the lines of one
    // ack), behind the SyncAckV1s that came before it, and inside a picked run (EXIF) its closing ack.
    expect(streams.length).toBeGreaterThan(20);
    let closings = 0;
    for (const lines of streams.slice(0, -1)) {
      expect(lines.map((line) => line.type)).not.toContain('SyncCompleteV1');
      const data = lines.filter((line) => line.type !== 'SyncAckV1');
      expect(data.length).toBeGreaterThan(0);
      expect(new Set(data.map((line) => line.ack)).size).toBe(1);
      const after = lines.slice(lines.indexOf(data.at(-1) as SyncLine) + 1);
      expect(after.length).toBeLessThanOrEqual(1);
      if (after[0]) {
        expect(after[0].ack.split('|')).toHaveLength(3);
        closings++;
      }
    }
    expect(closings).toBeGreaterThan(0);
    const whole: SyncLine[][] = [];
    const reference = new SyncClient(transport(await session(owner, 'DeadlineOwner'), whole));
    await reference.sync();
    expect(whole).toHaveLength(1);
    expect(whole[0]?.at(-1)?.type).toBe('SyncCompleteV1');
    expect(tablesOf(client)).toEqual(tablesOf(reference));
    // The library is all there: the owner's, the partner's and the member's album's photos, the people.
    expect(client.assets.size).toBe(6 + 4 + 3);
    expect(client.people.size).toBe(2);
    expect(client.albums.size).toBe(2);
    expect(client.assets.get(mine[1] ?? '')?.isFavorite).toBe(true);
    // Nothing is left: the next sync sends only its completion.
    expect((await client.sync()).map((line) => line.type)).toEqual(['SyncCompleteV1']);
  });

  for (const gzip of [false, true])
    it(`past STREAM_MAX_BYTES (${gzip ? 'gzip-compressed' : 'uncompressed'}), each stream ends after the run that passed it, and the app converges`, async () => {
      const { owner } = await family(gzip ? 'BytesGz' : 'Bytes');
      const maxBytes = 3_000;
      process.env.STREAM_MAX_BYTES = String(maxBytes);
      const streams: SyncLine[][] = [];
      const headers: Record<string, string> = gzip ? { 'accept-encoding': 'gzip' } : {};
      const client = new SyncClient(transport(await session(owner, gzip ? 'BytesGzOwner' : 'BytesOwner'), streams, { headers }));
      await syncUntilComplete(client, streams);
      expect(streams.length).toBeGreaterThan(3);
      const bytesOf = (lines: SyncLine[]) => lines.reduce((sum, line) => sum + Buffer.byteLength(JSON.stringify(line)) + 1, 0);
      for (const lines of streams.slice(0, -1)) {
        expect(lines.map((line) => line.type)).not.toContain('SyncCompleteV1');
        // It ended once past the limit, not before; the last run (one ack's lines) is what passed it.
        expect(bytesOf(lines)).toBeGreaterThanOrEqual(maxBytes);
        // (Behind it, inside a picked run, the run's closing SyncAckV1.)
        const closed = lines.at(-1)?.type === 'SyncAckV1' && lines.at(-1)?.ack.split('|').length === 3;
        const sent = closed ? lines.slice(0, -1) : lines;
        const lastAck = sent.at(-1)?.ack;
        expect(bytesOf(sent.filter((line) => line.ack !== lastAck))).toBeLessThan(maxBytes);
      }
      delete process.env.STREAM_MAX_BYTES;
      const whole: SyncLine[][] = [];
      const reference = new SyncClient(transport(await session(owner, gzip ? 'BytesGzOwner' : 'BytesOwner'), whole, { headers }));
      await reference.sync();
      expect(whole).toHaveLength(1);
      expect(tablesOf(client)).toEqual(tablesOf(reference));
      expect(client.assets.size).toBe(6 + 3 + 2);
    });
});
