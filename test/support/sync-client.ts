import { handler as deleteAckHandler } from '#functions/v3/sync/delete-sync-ack.ts';
import { handler as streamHandler } from '#functions/v3/sync/get-sync-stream.ts';
import { handler as sendAckHandler } from '#functions/v3/sync/send-sync-ack.ts';
import { bearer } from './accounts.ts';
import { appTypes } from './app-sync-types.ts';
import { invoke } from './invoke.ts';

export { appTypes };

export interface SyncLine {
  type: string;
  data: any;
  ack: string;
}

export interface StreamReply {
  status: number;
  headers: Record<string, string>;
  /** The lines, or the JSON error body. */
  lines: SyncLine[];
  body: any;
}

/** POST /api/sync/stream through its streaming handler, as Lambda would call it, collecting what it writes. */
export const syncStream = async (token: string, body: unknown, headers: Record<string, string> = {}): Promise<StreamReply> => {
  const reply = await invoke(streamHandler, { method: 'POST', path: '/api/sync/stream', headers: { ...bearer(token), ...headers }, body });
  const lines = reply.headers['content-type'] === 'application/jsonlines+json';
  return { status: reply.status, headers: reply.headers, lines: lines ? (reply.body as SyncLine[]) : [], body: reply.body };
};

export const sendAcks = (token: string, acks: string[]) =>
  invoke(sendAckHandler, { method: 'POST', path: '/api/sync/ack', headers: bearer(token), body: { acks } });

export const deleteAcks = (token: string, types?: string[]) =>
  invoke(deleteAckHandler, { method: 'DELETE', path: '/api/sync/ack', headers: bearer(token), body: types ? { types } : {} });

/**
 * A client that behaves as the mobile app's sync (mobile/lib/domain/services/sync_stream.service.dart):
 * it asks for the app's types, handles the lines in runs of one type, acks the last of each run,
 * keeps a local store, and on SyncResetV1 wipes it, acks the reset and syncs again.
 */
/** How a client reaches the server: the handlers themselves (handler tests) or HTTP (e2e). */
export interface SyncTransport {
  stream(
    body: unknown,
    options: { cutAfter?: number; headers?: Record<string, string> },
  ): Promise<{ status: number; lines: SyncLine[]; body: any }>;
  ack(acks: string[]): Promise<{ status: number; body: any }>;
}

/** The handlers, called as Lambda would (the whole answer is collected, then cut where asked). */
export const handlerTransport = (token: string): SyncTransport => ({
  stream: async (body, options) => {
    const reply = await syncStream(token, body, options.headers);
    return { ...reply, lines: reply.lines.slice(0, options.cutAfter ?? reply.lines.length) };
  },
  ack: (acks) => sendAcks(token, acks),
});

export class SyncClient {
  readonly transport: SyncTransport;
  assets = new Map<string, any>();
  exifs = new Map<string, any>();
  users = new Map<string, any>();
  authUser: any;
  partners = new Map<string, any>();
  albums = new Map<string, any>();
  albumUsers = new Map<string, any>();
  albumAssets = new Map<string, any>();
  people = new Map<string, any>();
  faces = new Map<string, any>();
  metadata = new Map<string, any>();
  /** The types of every line handled, in order (for the tests' checks). */
  seen: string[] = [];

  constructor(tokenOrTransport: string | SyncTransport) {
    this.transport = typeof tokenOrTransport === 'string' ? handlerTransport(tokenOrTransport) : tokenOrTransport;
  }

  wipe(): void {
    for (const map of [
      this.assets,
      this.exifs,
      this.users,
      this.partners,
      this.albums,
      this.albumUsers,
      this.albumAssets,
      this.people,
      this.faces,
      this.metadata,
    ])
      map.clear();
    this.authUser = undefined;
  }

  /**
   * One sync: handles the lines (at most `cutAfter`, as if the connection broke there: the rest is
   * never handled nor acked) and acks each run of one type. Returns the lines it received.
   */
  async sync(options: { cutAfter?: number; types?: string[]; headers?: Record<string, string> } = {}): Promise<SyncLine[]> {
    const reply = await this.transport.stream(
      { types: options.types ?? appTypes },
      {
        ...(options.cutAfter !== undefined ? { cutAfter: options.cutAfter } : {}),
        ...(options.headers ? { headers: options.headers } : {}),
      },
    );
    if (reply.status !== 200) throw new Error(`sync stream answered ${reply.status}: ${JSON.stringify(reply.body)}`);
    const { lines } = reply;
    let reset = false;
    let run: SyncLine[] = [];
    const flush = async () => {
      const last = run.at(-1);
      if (!last) return;
      for (const line of run) this.apply(line);
      const acked = await this.transport.ack([last.ack]);
      if (acked.status !== 204) throw new Error(`ack answered ${acked.status}: ${JSON.stringify(acked.body)}`);
      run = [];
    };
    for (const line of lines) {
      if (run.length > 0 && run[0]?.type !== line.type) await flush();
      if (line.type === 'SyncResetV1') reset = true;
      run.push(line);
    }
    await flush();
    if (reset) return [...lines, ...(await this.sync({ ...options, cutAfter: undefined }))];
    return lines;
  }

  private apply({ type, data }: SyncLine): void {
    this.seen.push(type);
    const pair = (a: string, b: string) => `${a}|${b}`;
    switch (type) {
      case 'SyncResetV1':
        this.wipe();
        return;
      case 'AuthUserV1':
        this.authUser = data;
        return;
      case 'UserV1':
        this.users.set(data.id, data);
        return;
      case 'UserDeleteV1':
        this.users.delete(data.userId);
        return;
      case 'PartnerV1':
        this.partners.set(pair(data.sharedById, data.sharedWithId), data);
        return;
      case 'PartnerDeleteV1':
        this.partners.delete(pair(data.sharedById, data.sharedWithId));
        return;
      case 'AssetV2':
      case 'PartnerAssetV2':
      case 'PartnerAssetBackfillV2':
      case 'AlbumAssetCreateV2':
      case 'AlbumAssetUpdateV2':
      case 'AlbumAssetBackfillV2':
        this.assets.set(data.id, data);
        return;
      case 'AssetDeleteV1':
      case 'PartnerAssetDeleteV1':
        this.assets.delete(data.assetId);
        this.exifs.delete(data.assetId);
        return;
      case 'AssetExifV1':
      case 'PartnerAssetExifV1':
      case 'PartnerAssetExifBackfillV1':
      case 'AlbumAssetExifCreateV1':
      case 'AlbumAssetExifUpdateV1':
      case 'AlbumAssetExifBackfillV1':
        this.exifs.set(data.assetId, data);
        return;
      case 'AlbumV2':
        this.albums.set(data.id, data);
        return;
      case 'AlbumDeleteV1':
        this.albums.delete(data.albumId);
        for (const map of [this.albumUsers, this.albumAssets])
          for (const key of [...map.keys()]) if (key.startsWith(`${data.albumId}|`)) map.delete(key);
        return;
      case 'AlbumUserV1':
      case 'AlbumUserBackfillV1':
        this.albumUsers.set(pair(data.albumId, data.userId), data);
        return;
      case 'AlbumUserDeleteV1':
        this.albumUsers.delete(pair(data.albumId, data.userId));
        return;
      case 'AlbumToAssetV1':
      case 'AlbumToAssetBackfillV1':
        this.albumAssets.set(pair(data.albumId, data.assetId), data);
        return;
      case 'AlbumToAssetDeleteV1':
        this.albumAssets.delete(pair(data.albumId, data.assetId));
        return;
      case 'PersonV1':
        this.people.set(data.id, data);
        return;
      case 'PersonDeleteV1':
        this.people.delete(data.personId);
        return;
      case 'AssetFaceV2':
        this.faces.set(data.id, data);
        return;
      case 'AssetFaceDeleteV1':
        this.faces.delete(data.assetFaceId);
        return;
      case 'UserMetadataV1':
        this.metadata.set(pair(data.userId, data.key), data.value);
        return;
      case 'SyncAckV1':
      case 'SyncCompleteV1':
        return;
      default:
        throw new Error(`a line the app does not know: ${type}`);
    }
  }
}
