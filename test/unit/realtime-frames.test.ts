import { describe, expect, it } from 'vitest';
import type { AssetDetail } from '#shared/model/asset.ts';
import type { LiveEvent } from '#shared/model/realtime.ts';
import { connectPacket, disconnectPacket, eventPacket, openPacket, pingPacket } from '#shared/realtime/engine-io.ts';
import { serverVersionFrame } from '#shared/realtime/greeting.ts';
import { payloads } from '#shared/realtime/payloads.ts';
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
    let loads = 0;
    const event: LiveEvent = {
      kind: 'asset-uploaded',
      ownerId,
      assetId: asset.id,
      load: async () => {
        loads++;
        return detail;
      },
    };
    const framesOf = payloads();
    const [v1] = decoded(await framesOf(event, 'v1'));
    expect(v1?.[0]).toBe('on_upload_success');
    expect(v1?.[1]).toMatchObject({ id: asset.id, deviceAssetId: asset.deviceAssetId, resized: true, isFavorite: true });
    const v3 = decoded(await framesOf(event, 'v3'));
    expect(v3.map(([name]) => name)).toEqual(['on_upload_success', 'AssetUploadReadyV2']);
    expect(v3[0]?.[1]).toMatchObject({ id: asset.id, visibility: 'timeline', isEdited: true });
    expect(v3[1]?.[1]).toMatchObject({
      asset: { id: asset.id, ownerId, isFavorite: true, isEdited: true, stackId: null, libraryId: null },
      exif: { assetId: asset.id, exifImageWidth: 40, exifImageHeight: 30, fps: null, profileDescription: null },
    });
    await framesOf(event, 'v3');
    expect(loads).toBe(1);
  });

  it('sends an edit’s readiness to v3 only, with the edits in order; nothing of an asset gone meanwhile', async () => {
    const event: LiveEvent = { kind: 'asset-edited', ownerId, assetId: asset.id, load: async () => asset };
    expect(await payloads()(event, 'v1')).toEqual([]);
    const [[name, payload] = []] = decoded(await payloads()(event, 'v3'));
    expect(name).toBe('AssetEditReadyV2');
    expect(payload).toMatchObject({
      asset: { id: asset.id },
      edit: [{ id: '00000000-0000-4000-8000-0000000000e1', assetId: asset.id, action: 'rotate', parameters: { angle: 90 }, sequence: 0 }],
    });
    const gone: LiveEvent = { kind: 'asset-updated', ownerId, assetId: asset.id, load: async () => undefined };
    expect(await payloads()(gone, 'v3')).toEqual([]);
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
      for (const generation of ['v1', 'v3'] as const) expect(await payloads()(event, generation)).toEqual([frame]);
  });
});
