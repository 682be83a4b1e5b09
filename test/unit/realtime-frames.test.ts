import { describe, expect, it } from 'vitest';
import { limiter } from '#shared/core/concurrency.ts';
import type { AssetDetail } from '#shared/model/asset.ts';
import type { LiveEvent } from '#shared/model/realtime.ts';
import { connectPacket, disconnectPacket, eventPacket, openPacket, pingPacket } from '#shared/realtime/engine-io.ts';
import { serverVersionFrame } from '#shared/realtime/greeting.ts';
import { loadPayloads } from '#shared/realtime/payloads.ts';
import { roundsOf } from '#shared/realtime/publisher.ts';
import { assetRecord } from '../support/records.ts';

/**
 * The frames of Immich's socket as its apps read them (Engine.IO 4 / socket.io 5 over WebSocket,
 * docs/web-app.md, "Realtime"), and each event's payload in each generation's shape.
 */
describe('socket.io framing', () => {
  it('opens with Engine.IO’s packet: the session id, no upgrades (WebSocket only), the heartbeat, the payload limit', () => {
    const packet = openPacket({ sid: 'abc', pingIntervalMs: 300_000, pingTimeoutMs: 300_000 });
    expect(packet[0]).toBe('0');
    // Both apps need `upgrades` (an array) and whole numbers for the heartbeat.
    expect(JSON.parse(packet.slice(1))).toEqual({
      sid: 'abc',
      upgrades: [],
      pingInterval: 300_000,
      pingTimeout: 300_000,
      maxPayload: 1_000_000,
    });
  });

  it('connects the default namespace with its socket id, disconnects it, and pings', () => {
    expect(connectPacket('s1d')).toBe('40{"sid":"s1d"}');
    expect(disconnectPacket).toBe('41');
    expect(pingPacket).toBe('2');
  });

  it('writes an event as the default namespace’s message: its name, then its arguments (none for some)', () => {
    expect(eventPacket('on_config_update')).toBe('42["on_config_update"]');
    expect(eventPacket('on_asset_trash', ['a', 'b'])).toBe('42["on_asset_trash",["a","b"]]');
    expect(eventPacket('error', 'unauthorized')).toBe('42["error","unauthorized"]');
    // Whatever a name or payload holds, the frame is one JSON array.
    expect(JSON.parse(eventPacket('x', { text: '"]\n\u2028' }).slice(2))).toEqual(['x', { text: '"]\n\u2028' }]);
  });

  it('tells each generation its own server version', () => {
    expect(serverVersionFrame('v1')).toBe('42["on_server_version",{"major":1,"minor":100,"patch":0}]');
    expect(serverVersionFrame('v3')).toBe('42["on_server_version",{"major":3,"minor":2,"patch":2,"prerelease":null}]');
  });
});

describe('each event in each generation', () => {
  const ownerId = '00000000-0000-4000-8000-000000000001';
  const asset = assetRecord(ownerId, {
    thumbhash: 'AAAA',
    resizePath: 'thumbs/x.jpg',
    isFavorite: true,
    edits: [{ id: '00000000-0000-4000-8000-0000000000e1', action: 'rotate', parameters: { angle: 90 } }] as never,
    exif: { exifImageWidth: 40, exifImageHeight: 30 },
  });
  const detail: AssetDetail = { asset, faces: [], people: [], tags: [] };
  const decoded = (frames: string[]) => frames.map((frame) => JSON.parse(frame.slice(2)) as [string, ...unknown[]]);

  it('sends an upload as v1.100’s asset, or as v3’s with the sync stream’s asset and EXIF (loaded once however many are told)', async () => {
    const loads: (readonly string[])[] = [];
    const other = assetRecord(ownerId);
    // Every event of a publication that carries the same loader is loaded in one call, each asset once.
    const load = async (ids: readonly string[]) => {
      loads.push(ids);
      return new Map([
        [asset.id, detail],
        [other.id, { asset: other, faces: [], people: [], tags: [] }],
      ]);
    };
    const event: LiveEvent = { kind: 'asset-uploaded', ownerId, assetId: asset.id, load };
    const again: LiveEvent = { kind: 'asset-updated', ownerId, assetId: asset.id, load };
    const otherEvent: LiveEvent = { kind: 'asset-uploaded', ownerId, assetId: other.id, load };
    const framesOf = await loadPayloads([event, again, otherEvent]);
    expect(loads).toEqual([[asset.id, other.id]]);
    const [v1] = decoded(framesOf(event, 'v1'));
    expect(v1?.[0]).toBe('on_upload_success');
    expect(v1?.[1]).toMatchObject({ id: asset.id, deviceAssetId: asset.deviceAssetId, resized: true, isFavorite: true });
    const v3 = decoded(framesOf(event, 'v3'));
    expect(v3.map(([name]) => name)).toEqual(['on_upload_success', 'AssetUploadReadyV2']);
    expect(v3[0]?.[1]).toMatchObject({ id: asset.id, visibility: 'timeline', isEdited: true });
    expect(v3[1]?.[1]).toMatchObject({
      asset: { id: asset.id, ownerId, isFavorite: true, isEdited: true, stackId: null, libraryId: null },
      exif: { assetId: asset.id, exifImageWidth: 40, exifImageHeight: 30, fps: null, profileDescription: null },
    });
    // Built once per generation, however many connections are told.
    expect(framesOf(event, 'v3')).toBe(framesOf(event, 'v3'));
    expect(decoded(framesOf(again, 'v1')).map(([name]) => name)).toEqual(['on_asset_update']);
    expect(decoded(framesOf(otherEvent, 'v1'))[0]?.[1]).toMatchObject({ id: other.id });
    expect(loads).toHaveLength(1);
  });

  it('sends an edit’s readiness to v3 only, with the edits in order; nothing of an asset gone meanwhile, or whose loader failed', async () => {
    const event: LiveEvent = { kind: 'asset-edited', ownerId, assetId: asset.id, load: async () => new Map([[asset.id, asset]]) };
    const framesOf = await loadPayloads([event]);
    expect(framesOf(event, 'v1')).toEqual([]);
    const [[name, payload] = []] = decoded(framesOf(event, 'v3'));
    expect(name).toBe('AssetEditReadyV2');
    expect(payload).toMatchObject({
      asset: { id: asset.id },
      edit: [{ id: '00000000-0000-4000-8000-0000000000e1', assetId: asset.id, action: 'rotate', parameters: { angle: 90 }, sequence: 0 }],
    });
    const gone: LiveEvent = { kind: 'asset-updated', ownerId, assetId: asset.id, load: async () => new Map() };
    const failed: LiveEvent = {
      kind: 'asset-updated',
      ownerId,
      assetId: asset.id,
      load: async () => {
        throw new Error('unreadable');
      },
    };
    const trashed: LiveEvent = { kind: 'assets-trashed', userId: ownerId, assetIds: [asset.id] };
    const others = await loadPayloads([gone, failed, trashed]);
    expect(others(gone, 'v3')).toEqual([]);
    expect(others(failed, 'v3')).toEqual([]);
    expect(others(trashed, 'v3')).toEqual([`42["on_asset_trash",["${asset.id}"]]`]);
  });

  it('sends the events that carry ids or nothing alike to both generations', async () => {
    const cases: [LiveEvent, string][] = [
      [{ kind: 'assets-trashed', userId: ownerId, assetIds: ['a'] }, '42["on_asset_trash",["a"]]'],
      [{ kind: 'asset-deleted', ownerId, assetId: 'a' }, '42["on_asset_delete","a"]'],
      [{ kind: 'assets-restored', userId: ownerId, assetIds: ['a', 'b'] }, '42["on_asset_restore",["a","b"]]'],
      [{ kind: 'stacks-changed', userId: ownerId }, '42["on_asset_stack_update"]'],
      [{ kind: 'album-changed', albumId: 'al', userIds: [ownerId] }, '42["on_album_update","al"]'],
      [{ kind: 'person-thumbnail', ownerId, personId: 'p' }, '42["on_person_thumbnail","p"]'],
      [{ kind: 'config-changed' }, '42["on_config_update"]'],
      [{ kind: 'session-ended', userId: ownerId, sessionHash: 'h', sessionId: 's' }, '42["on_session_delete","s"]'],
      [{ kind: 'user-deleted', userId: 'u' }, '42["on_user_delete","u"]'],
    ];
    for (const [event, frame] of cases)
      for (const generation of ['v1', 'v3'] as const) expect((await loadPayloads([event]))(event, generation)).toEqual([frame]);
  });
});

describe('a connection’s frames, many at once where the order does not matter', () => {
  it('posts frames about different assets in one round, one asset’s in order, and one about everything alone between', () => {
    const frame = (name: string, subjects: readonly string[] | 'all') => ({ frame: name, subjects });
    expect(
      roundsOf([
        frame('a1', ['asset:a']),
        frame('b', ['asset:b']),
        frame('a2', ['asset:a']),
        frame('c', ['asset:c']),
        frame('stack', 'all'),
        frame('d', ['asset:d']),
        frame('trash a d', ['asset:a', 'asset:d']),
        frame('e', ['asset:e']),
      ]),
    ).toEqual([['a1', 'b', 'c'], ['a2'], ['stack'], ['d', 'e'], ['trash a d']]);
    expect(roundsOf([])).toEqual([]);
  });

  it('runs at most its limit of works at once, every one of them, in the order handed', async () => {
    const gate = limiter(3);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        gate(async () => {
          started.push(i);
          running++;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 1));
          running--;
        }),
      ),
    );
    expect(most).toBe(3);
    expect(started).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});
