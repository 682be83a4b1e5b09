import { type SyncLine, type SyncTransport, serverFailure } from './sync-client.ts';

export interface HttpStreamReply {
  status: number;
  headers: Headers;
  lines: SyncLine[];
  /** The JSON error body, when not 200. */
  body: any;
  /** Bytes of lines received (decompressed). */
  bytes: number;
  /** The answer ended cleanly (false: cut after `cutAfter` lines on purpose). */
  complete: boolean;
}

/**
 * POST /api/sync/stream over HTTP, reading lines as they arrive (as the app's client does); with
 * `cutAfter`, the connection is dropped after that many lines. `onLine` sees each as it comes. A
 * 5xx or a stream the server cut short throws (the app's sync would fail: `serverFailure`).
 */
export const streamOverHttp = async (
  baseUrl: string,
  token: string,
  body: unknown,
  options: { cutAfter?: number; headers?: Record<string, string>; onLine?: (line: SyncLine) => void } = {},
): Promise<HttpStreamReply> => {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/sync/stream`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/jsonlines+json',
      // No token: the caller authenticates another way (the app's session cookie, in options.headers).
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...options.headers,
    },
    body: JSON.stringify(body),
    signal: abort.signal,
  });
  if (response.status !== 200 || !response.body) {
    const text = await response.text();
    const reply = { status: response.status, headers: response.headers, lines: [], body: text ? JSON.parse(text) : undefined, bytes: 0 };
    serverFailure({ ...reply, complete: true });
    return { ...reply, complete: true };
  }
  const lines: SyncLine[] = [];
  let bytes = 0;
  let rest = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body) {
      const text = rest + decoder.decode(chunk, { stream: true });
      const parts = text.split('\n');
      rest = parts.pop() ?? '';
      for (const part of parts) {
        bytes += Buffer.byteLength(part) + 1;
        const line = JSON.parse(part) as SyncLine;
        options.onLine?.(line);
        lines.push(line);
        if (options.cutAfter !== undefined && lines.length >= options.cutAfter) {
          abort.abort();
          return { status: 200, headers: response.headers, lines, body: undefined, bytes, complete: false };
        }
      }
    }
  } catch (error) {
    // Hanging up ourselves (cutAfter) ends the read with an abort: that one is no server's failure.
    if (abort.signal.aborted) return { status: 200, headers: response.headers, lines, body: undefined, bytes, complete: false };
    serverFailure({ status: 200, body: String(error), complete: false });
  }
  return { status: 200, headers: response.headers, lines, body: undefined, bytes, complete: true };
};

/** The sync client's way to the server over HTTP (e2e). */
export const httpTransport = (baseUrl: string, token: string): SyncTransport => ({
  stream: (body, options) => streamOverHttp(baseUrl, token, body, options),
  ack: async (acks) => {
    const response = await fetch(`${baseUrl}/sync/ack`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ acks }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  },
});
