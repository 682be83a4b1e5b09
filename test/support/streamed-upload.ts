/**
 * Large uploads as the stock clients send them, without holding the file: a multipart body whose
 * file part is generated as it is sent (a small video's bytes, then an MP4 `free` box of padding
 * up to the size asked), its length known beforehand (the clients send `content-length`), its
 * SHA-1 computed on the way. And the raw HTTP request that sends it, which can also stop half-way
 * or send its headers only.
 */
import { createHash, type Hash } from 'node:crypto';
import { type IncomingHttpHeaders, request } from 'node:http';
import { Readable } from 'node:stream';

/** A file of `size` bytes: `head` (a real video), then a `free` box filled with `fill` (ISO BMFF: players skip it). */
export interface PaddedFile {
  head: Buffer;
  size: number;
  fill?: number;
}

/** The whole file, in memory (for the CLIs, which read files from disk). */
export const paddedFile = ({ head, size, fill = 0 }: PaddedFile): Buffer => {
  const padding = size - head.length;
  if (padding < 8) throw new Error('the file must leave room for a free box');
  const box = Buffer.alloc(padding, fill);
  box.writeUInt32BE(padding, 0);
  box.write('free', 4, 'latin1');
  return Buffer.concat([head, box]);
};

/** The same file as a stream of 1 MiB chunks, hashed (SHA-1) as it goes. */
const paddedStream = function* ({ head, size, fill = 0 }: PaddedFile, hash: Hash): Generator<Buffer> {
  const padding = size - head.length;
  const boxHeader = Buffer.alloc(8);
  boxHeader.writeUInt32BE(padding, 0);
  boxHeader.write('free', 4, 'latin1');
  const first = Buffer.concat([head, boxHeader]);
  hash.update(first);
  yield first;
  const chunk = Buffer.alloc(1024 * 1024, fill);
  for (let left = padding - 8; left > 0; left -= chunk.length) {
    const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
    hash.update(piece);
    yield piece;
  }
};

export interface StreamedForm {
  contentType: string;
  length: number;
  body: Readable;
  /** The file's SHA-1 (hex), once the body has been read through. */
  sha1(): string;
}

/**
 * A `multipart/form-data` body: each field as its own part (in the order given, with the part
 * headers `partHeaders` writes for it), then the file part. `boundary` and the part headers are the
 * client's, so the replay is byte for byte what it sends apart from the file's content.
 */
export const streamedForm = (options: {
  boundary: string;
  fields: [string, string][];
  file: PaddedFile & { field: string; name: string; type: string };
  /** The client's header lines of a part (Dart's http and a browser differ). */
  partHeaders?: (name: string, file?: { name: string; type: string }) => string[];
}): StreamedForm => {
  const { boundary, fields, file } = options;
  const headersOf =
    options.partHeaders ??
    ((name: string, upload?: { name: string; type: string }) =>
      upload
        ? [`Content-Disposition: form-data; name="${name}"; filename="${upload.name}"`, `Content-Type: ${upload.type}`]
        : [`Content-Disposition: form-data; name="${name}"`]);
  const part = (lines: string[]) => `--${boundary}\r\n${lines.join('\r\n')}\r\n\r\n`;
  const before = Buffer.from(
    `${fields.map(([name, value]) => `${part(headersOf(name))}${value}\r\n`).join('')}${part(headersOf(file.field, file))}`,
    'utf8',
  );
  const after = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
  const hash = createHash('sha1');
  let digest: string | undefined;
  const body = Readable.from(
    (function* () {
      yield before;
      yield* paddedStream(file, hash);
      digest = hash.digest('hex');
      yield after;
    })(),
    { objectMode: false },
  );
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: before.length + file.size + after.length,
    body,
    sha1: () => {
      if (!digest) throw new Error('the body has not been read through');
      return digest;
    },
  };
};

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * Sends a request with node:http, as a client with a socket of its own: the whole body
 * (`body`), or its headers and the first `stopAfter` bytes and then (once `stopWhen` resolves)
 * the connection is cut, or the headers alone (`body: 'none'`, the length still announced).
 */
export const send = (
  url: string,
  options: {
    method?: string;
    headers: Record<string, string | number>;
    body: Readable | 'none';
    stopAfter?: number;
    stopWhen?: () => Promise<void>;
  },
): Promise<RawAnswer> =>
  new Promise((resolve, reject) => {
    const outgoing = request(url, { method: options.method ?? 'POST', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        outgoing.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    outgoing.on('error', (error) =>
      options.stopAfter === undefined ? reject(error) : resolve({ status: 0, headers: {}, body: error.message }),
    );
    if (options.body === 'none') {
      outgoing.flushHeaders();
      return;
    }
    if (options.stopAfter === undefined) {
      options.body.pipe(outgoing);
      return;
    }
    // Half the body, then a client gone: the socket is destroyed, never ended.
    let sent = 0;
    const stopAt = options.stopAfter;
    const source = options.body;
    source.on('data', (chunk: Buffer) => {
      const room = stopAt - sent;
      if (room <= 0) return;
      const piece = chunk.length > room ? chunk.subarray(0, room) : chunk;
      sent += piece.length;
      if (!outgoing.write(piece)) source.pause();
      if (sent >= stopAt) {
        source.pause();
        void (options.stopWhen?.() ?? Promise.resolve()).then(() => {
          outgoing.destroy();
          resolve({ status: 0, headers: {}, body: 'cut' });
        }, reject);
      }
    });
    outgoing.on('drain', () => {
      if (sent < stopAt) source.resume();
    });
  });
