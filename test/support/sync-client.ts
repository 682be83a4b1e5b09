import { handler as deleteAckHandler } from '#functions/v3/sync/delete-sync-ack.ts';
import { handler as streamHandler } from '#functions/v3/sync/get-sync-stream.ts';
import { handler as sendAckHandler } from '#functions/v3/sync/send-sync-ack.ts';
import { bearer } from './accounts.ts';
import { AppStore, applyLine } from './app-store.ts';
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
  /** The answer ended cleanly (a stream cut short, as the server cuts one that fails, is not). */
  complete: boolean;
}

/**
 * A 5xx or a stream the server cut short throws: the app treats either as a failed sync, and then
 * skips its backup, so no sync test may meet one by chance (a test breaks a sync on purpose only
 * from the client's side: `cutAfter`).
 */
export const serverFailure = (reply: { status: number; body: unknown; complete: boolean }): void => {
  if (reply.status >= 500) throw new Error(`sync stream answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  if (!reply.complete) throw new Error('sync stream cut short: the server failed while streaming');
};

/** POST /api/sync/stream through its streaming handler, as Lambda would call it, collecting what it writes. */
export const syncStream = async (token: string, body: unknown, headers: Record<string, string> = {}): Promise<StreamReply> => {
  const reply = await invoke(streamHandler, { method: 'POST', path: '/api/sync/stream', headers: { ...bearer(token), ...headers }, body });
  serverFailure(reply);
  const lines = reply.headers['content-type'] === 'application/jsonlines+json';
  return { status: reply.status, headers: reply.headers, lines: lines ? (reply.body as SyncLine[]) : [], body: reply.body, complete: true };
};

export const sendAcks = (token: string, acks: string[]) =>
  invoke(sendAckHandler, { method: 'POST', path: '/api/sync/ack', headers: bearer(token), body: { acks } });

export const deleteAcks = (token: string, types?: string[]) =>
  invoke(deleteAckHandler, { method: 'DELETE', path: '/api/sync/ack', headers: bearer(token), body: types ? { types } : {} });

/** How a client reaches the server: the handlers themselves (handler tests) or HTTP (e2e). */
export interface SyncTransport {
  /**
   * The stream's answer: `complete` false when the client hung up after `cutAfter` lines, as if
   * the connection broke there. A 5xx or a stream the server cut short throws (`serverFailure`).
   */
  stream(
    body: unknown,
    options: { cutAfter?: number; headers?: Record<string, string> },
  ): Promise<{ status: number; lines: SyncLine[]; body: any; complete: boolean }>;
  ack(acks: string[]): Promise<{ status: number; body: any }>;
}

/** The handlers, called as Lambda would (the whole answer is collected, then cut where asked). */
export const handlerTransport = (token: string): SyncTransport => ({
  stream: async (body, options) => {
    const reply = await invoke(streamHandler, {
      method: 'POST',
      path: '/api/sync/stream',
      headers: { ...bearer(token), ...options.headers },
      body,
    });
    serverFailure(reply);
    const lines: SyncLine[] = reply.headers['content-type'] === 'application/jsonlines+json' ? reply.body : [];
    const cut = options.cutAfter !== undefined && options.cutAfter < lines.length;
    return { status: reply.status, body: reply.body, lines: cut ? lines.slice(0, options.cutAfter) : lines, complete: !cut };
  },
  ack: (acks) => sendAcks(token, acks),
});

/** What one sync did: `ok` as the app decides it (a failed sync skips the app's backup). */
export interface SyncResult {
  ok: boolean;
  lines: SyncLine[];
  error?: Error;
}

/** The app's batch of lines (mobile/lib/constants/constants.dart `kSyncEventBatchSize`). */
export const appBatchSize = 5000;

/**
 * A client that syncs as the mobile app 3.x does (mobile/lib/infrastructure/repositories/
 * sync_api.repository.dart, domain/services/sync_stream.service.dart), into the app's tables with
 * their foreign keys (./app-store.ts):
 * - it asks for the app's types and reads the lines as they come;
 * - it handles them only in whole batches of `batchSize` lines (the app's 5,000) or at a clean end
 *   of the stream: in runs of one type, each run in one transaction, acking the run's last line;
 * - a non-200 answer, a stream cut short, or a run the tables refuse (a line before what it refers
 *   to) fails the sync: the lines of the batch not yet handled are dropped, nothing more is acked;
 * - on SyncResetV1 it empties its tables, acks the reset and syncs again.
 * `sync()` throws on a failed sync (no test may meet one by chance); `attempt()` reports it, for
 * the tests that break a sync on purpose.
 */
export class SyncClient {
  readonly transport: SyncTransport;
  readonly store = new AppStore();
  readonly batchSize: number;
  /** The types of every line handled, in order (for the tests' checks). */
  seen: string[] = [];

  constructor(tokenOrTransport: string | SyncTransport, options: { batchSize?: number } = {}) {
    this.transport = typeof tokenOrTransport === 'string' ? handlerTransport(tokenOrTransport) : tokenOrTransport;
    this.batchSize = options.batchSize ?? appBatchSize;
  }

  get authUser(): any {
    return [...this.store.table('authUsers').values()][0];
  }
  get users() {
    return this.store.table('users');
  }
  get partners() {
    return this.store.table('partners');
  }
  get assets() {
    return this.store.table('assets');
  }
  get exifs() {
    return this.store.table('exifs');
  }
  get albums() {
    return this.store.table('albums');
  }
  get albumUsers() {
    return this.store.table('albumUsers');
  }
  get albumAssets() {
    return this.store.table('albumAssets');
  }
  get people() {
    return this.store.table('people');
  }
  get faces() {
    return this.store.table('faces');
  }
  get stacks() {
    return this.store.table('stacks');
  }
  get memories() {
    return this.store.table('memories');
  }
  get memoryAssets() {
    return this.store.table('memoryAssets');
  }
  get cloudIds() {
    return this.store.table('cloudIds');
  }
  /** User metadata values by `<userId>|<key>`. */
  get metadata(): Map<string, any> {
    return new Map([...this.store.table('userMetadata')].map(([key, row]) => [key, row.value]));
  }

  /** One sync that must succeed; returns the lines it received. */
  async sync(options: { types?: string[]; headers?: Record<string, string> } = {}): Promise<SyncLine[]> {
    const result = await this.attempt(options);
    if (!result.ok) throw result.error ?? new Error('sync failed');
    return result.lines;
  }

  /** One sync as the app runs it; with `cutAfter`, the connection breaks after that many lines. */
  async attempt(options: { cutAfter?: number; types?: string[]; headers?: Record<string, string> } = {}): Promise<SyncResult> {
    const reply = await this.transport.stream(
      { types: options.types ?? appTypes },
      {
        ...(options.cutAfter !== undefined ? { cutAfter: options.cutAfter } : {}),
        ...(options.headers ? { headers: options.headers } : {}),
      },
    );
    if (reply.status !== 200)
      return { ok: false, lines: [], error: new Error(`sync stream answered ${reply.status}: ${JSON.stringify(reply.body)}`) };
    const { lines } = reply;
    let reset = false;
    try {
      // Whole batches as they fill; the rest only if the stream ended cleanly.
      const whole = lines.length - (lines.length % this.batchSize);
      for (let start = 0; start < whole; start += this.batchSize) {
        if (await this.handleBatch(lines.slice(start, start + this.batchSize))) reset = true;
      }
      if (!reply.complete) return { ok: false, lines, error: new Error(`sync stream cut short after ${lines.length} lines`) };
      if (await this.handleBatch(lines.slice(whole))) reset = true;
    } catch (error) {
      return { ok: false, lines, error: error instanceof Error ? error : new Error(String(error)) };
    }
    if (!reset) return { ok: true, lines };
    const again = await this.attempt({ ...options, cutAfter: undefined });
    return { ...again, lines: [...lines, ...again.lines] };
  }

  /** The app's `_handleEvents`: runs of one type, each applied in one transaction and then acked. Returns whether it held a reset. */
  private async handleBatch(batch: readonly SyncLine[]): Promise<boolean> {
    let reset = false;
    let run: SyncLine[] = [];
    const flush = async () => {
      const last = run.at(-1);
      if (!last) return;
      this.store.transaction(() => {
        for (const line of run) applyLine(this.store, line.type, line.data);
      });
      for (const line of run) this.seen.push(line.type);
      const acked = await this.transport.ack([last.ack]);
      if (acked.status !== 204) throw new Error(`ack answered ${acked.status}: ${JSON.stringify(acked.body)}`);
      run = [];
    };
    for (const line of batch) {
      if (run.length > 0 && run[0]?.type !== line.type) await flush();
      if (line.type === 'SyncResetV1') reset = true;
      run.push(line);
    }
    await flush();
    return reset;
  }
}
