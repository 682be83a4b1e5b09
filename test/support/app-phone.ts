import { createHash } from 'node:crypto';
import * as v1 from '@immich/sdk';
import * as v3 from '@immich/sdk-v3';
import { expect } from 'vitest';
import { applyLine } from './app-store.ts';
import { openSocket } from './realtime.ts';
import { SyncClient, type SyncTransport } from './sync-client.ts';
import { streamOverHttp } from './sync-http.ts';

/**
 * Immich's mobile app 3.x as a test drives it over HTTP (mobile/lib): it signs in with the
 * password and keeps the `immich_access_token` cookie the login sets (every later call, the sync
 * included, authenticates with that cookie, as the app's native HTTP client does), syncs into its
 * local tables as the app does (./sync-client.ts), and backs up a photo as the app sends it
 * (`POST /assets` with its fields). `matchesRest` checks, after each step of a test, that what
 * the app shows equals what the REST API says.
 */
export class Phone {
  readonly client: SyncClient;
  readonly userId: string;
  private readonly cookie: string;
  readonly token: string;

  readonly baseUrl: string;
  readonly deviceId: string;

  private constructor(baseUrl: string, session: { token: string; userId: string; cookie: string }, deviceId: string) {
    this.baseUrl = baseUrl;
    this.deviceId = deviceId;
    this.token = session.token;
    this.userId = session.userId;
    this.cookie = session.cookie;
    const transport: SyncTransport = {
      stream: (body, options) => streamOverHttp(baseUrl, '', body, { ...options, headers: { ...this.headers(), ...options.headers } }),
      ack: async (acks) => {
        const response = await fetch(`${baseUrl}/sync/ack`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...this.headers() },
          body: JSON.stringify({ acks }),
        });
        const text = await response.text();
        return { status: response.status, body: text ? JSON.parse(text) : undefined };
      },
    };
    this.client = new SyncClient(transport);
  }

  /** Signs in as the app does (`POST /auth/login`), keeping the session cookie. */
  static async signIn(baseUrl: string, email: string, password: string, deviceId = `phone-${email}`): Promise<Phone> {
    const response = await fetch(`${baseUrl}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'immich-android/3.1.0' },
      body: JSON.stringify({ email, password }),
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { accessToken: string; userId: string };
    const cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(';')[0] ?? '')
      .find((pair) => pair.startsWith('immich_access_token='));
    expect(cookie, 'the login sets the session cookie the app keeps').toBeDefined();
    return new Phone(baseUrl, { token: body.accessToken, userId: body.userId, cookie: cookie ?? '' }, deviceId);
  }

  /** The app's headers: its user agent and the session cookie (no bearer token). */
  headers(): Record<string, string> {
    return { cookie: this.cookie, 'user-agent': 'immich-android/3.1.0' };
  }

  /** What the SDK takes to act as this user (the same cookie). */
  get sdk(): { baseUrl: string; headers: Record<string, string> } {
    return { baseUrl: this.baseUrl, headers: this.headers() };
  }

  /**
   * The app's socket (mobile/lib/providers/websocket.provider.dart): opened on its cookie jar with
   * its User-Agent; `applyUploadsReady` then writes what `AssetUploadReadyV2` brought into the
   * app's tables, as its batch handler does (the asset and its EXIF), before any sync.
   */
  listen(origin: string) {
    const socket = openSocket(origin, { headers: { cookie: this.cookie }, userAgent: 'immich-android/3.1.0' });
    return {
      ...socket,
      applyUploadsReady: async (ids: readonly string[]): Promise<void> => {
        for (const id of ids) {
          const [ready] = (await socket.next('AssetUploadReadyV2', (event: { asset: { id: string } }) => event.asset.id === id)) as [
            { asset: unknown; exif: unknown },
          ];
          this.client.store.transaction(() => {
            applyLine(this.client.store, 'AssetV2', ready.asset);
            applyLine(this.client.store, 'AssetExifV1', ready.exif);
          });
        }
      },
    };
  }

  /** One sync as the app runs it; a failed sync fails the test. */
  sync() {
    return this.client.sync();
  }

  /**
   * The app's backup of the given photos: the server is asked which of their SHA-1s it lacks
   * (`POST /assets/bulk-upload-check`), then each of those is sent as the app sends it. Returns
   * the new assets' ids, by file name.
   */
  async backUp(photos: readonly { name: string; data: Buffer; takenAt: string; favorite?: boolean }[]): Promise<Map<string, string>> {
    const sha1 = (data: Buffer) => createHash('sha1').update(data).digest('hex');
    const check = await v3.checkBulkUpload(
      { assetBulkUploadCheckDto: { assets: photos.map((photo) => ({ id: photo.name, checksum: sha1(photo.data) })) } },
      this.sdk,
    );
    const wanted = new Set(check.results.filter((result) => result.action === 'accept').map((result) => result.id));
    const uploaded = new Map<string, string>();
    for (const photo of photos.filter((candidate) => wanted.has(candidate.name))) {
      const form = new FormData();
      form.set('deviceAssetId', `local-${photo.name}`);
      form.set('deviceId', this.deviceId);
      form.set('fileCreatedAt', photo.takenAt);
      form.set('fileModifiedAt', photo.takenAt);
      form.set('isFavorite', String(photo.favorite === true));
      // The app sends the duration in milliseconds, 0 for a photo.
      form.set('duration', '0');
      form.set('assetData', new File([new Uint8Array(photo.data)], photo.name));
      const response = await fetch(`${this.baseUrl}/assets`, { method: 'POST', headers: this.headers(), body: form });
      const body = (await response.json()) as { id: string; status: string };
      expect(response.status, JSON.stringify(body)).toBe(201);
      uploaded.set(photo.name, body.id);
    }
    return uploaded;
  }

  /**
   * What the app shows equals what the REST API says, for the assets named (the user's own, and
   * others' they may see): each one the API still lets the user see is in the app's tables in the
   * same state, and each one it does not is not shown; then the albums with what is in them and
   * their users, the partners, and the people.
   */
  async matchesRest(assetIds: readonly string[]): Promise<void> {
    const { client } = this;
    for (const id of assetIds) {
      const synced = client.assets.get(id);
      const info = await v3.getAssetInfo({ id }, this.sdk).catch(() => undefined);
      // The app shows someone else's asset only in the timeline's visibility (its queries filter on it).
      const shown = (row: typeof synced) =>
        row !== undefined && row.deletedAt === null && (row.ownerId === this.userId || row.visibility === 'timeline');
      if (!info || info.isTrashed) {
        // Gone, someone else's trash or never theirs to see: the app does not show it.
        if (info?.ownerId !== this.userId) expect(shown(synced) && this.reachable(id), `asset ${id} is not shown`).toBe(false);
        else expect(synced?.deletedAt, `own trashed ${id}`).not.toBeNull();
        continue;
      }
      expect(synced, `asset ${id} is in the app`).toBeDefined();
      expect(synced, `asset ${id}`).toMatchObject({
        ownerId: info.ownerId,
        visibility: info.visibility,
        deletedAt: null,
        ...(info.ownerId === this.userId ? { isFavorite: info.isFavorite } : {}),
      });
    }
    // Albums: theirs and those shared with them, what is in them (the album's own view leaves the
    // trash out), and their users (the owner, then each member).
    const ids = (await v3.getAllAlbums({}, this.sdk)).map((album) => album.id).sort();
    expect([...client.albums.keys()].sort(), 'albums').toEqual(ids);
    for (const albumId of ids) {
      const album = await v3.getAlbumInfo({ id: albumId }, this.sdk);
      // The album's page (v3's reads its timeline; v1.100's answer lists the assets: one library).
      const { assets } = await v1.getAlbumInfo({ id: albumId }, this.sdk);
      const inApp = [...client.albumAssets.values()]
        .filter((entry) => entry.albumId === albumId && client.assets.get(entry.assetId)?.deletedAt === null)
        .map((entry) => entry.assetId)
        .sort();
      expect(inApp, `album ${album.albumName}`).toEqual(assets.map((asset) => asset.id).sort());
      const users = [...client.albumUsers.values()].filter((entry) => entry.albumId === albumId).map((entry) => entry.userId);
      expect(users.sort(), `users of ${album.albumName}`).toEqual(album.albumUsers.map((entry) => entry.user.id).sort());
    }
    // Partners, both ways.
    const sharedWith = (await v3.getPartners({ direction: v3.PartnerDirection.SharedWith }, this.sdk)).map((partner) => partner.id).sort();
    const sharedBy = (await v3.getPartners({ direction: v3.PartnerDirection.SharedBy }, this.sdk)).map((partner) => partner.id).sort();
    const partners = [...client.partners.values()];
    expect(
      partners
        .filter((row) => row.sharedWithId === this.userId)
        .map((row) => row.sharedById)
        .sort(),
      'shared with me',
    ).toEqual(sharedWith);
    expect(
      partners
        .filter((row) => row.sharedById === this.userId)
        .map((row) => row.sharedWithId)
        .sort(),
      'shared by me',
    ).toEqual(sharedBy);
    // People, as named.
    const people = await v3.getAllPeople({ withHidden: true }, this.sdk);
    for (const person of people.people) expect(client.people.get(person.id), `person ${person.name}`).toMatchObject({ name: person.name });
  }

  /**
   * Whether the app would show someone else's asset it holds: the app's timeline shows an asset
   * of a partner it still has, and an album shows its entries.
   */
  private reachable(assetId: string): boolean {
    const row = this.client.assets.get(assetId);
    if (!row) return false;
    const partner = [...this.client.partners.values()].some((p) => p.sharedById === row.ownerId && p.sharedWithId === this.userId);
    const inAlbum = [...this.client.albumAssets.values()].some((entry) => entry.assetId === assetId);
    return row.ownerId === this.userId || partner || inAlbum;
  }
}
