/**
 * Reading a URL that the configuration or a request names, so that the server cannot be turned
 * against itself or its network (docs/places.md, "The map": the map style is the one such URL
 * today). What it reads:
 * - only `http:` and `https:` (and a `data:` URL named directly, which reaches no host);
 * - never a host whose address is link-local (169.254.0.0/16, fe80::/10: cloud metadata services
 *   and Lambda's own endpoints), unspecified, multicast or reserved, nor, where a Lambda runtime
 *   API is (`AWS_LAMBDA_RUNTIME_API` set: deployed), loopback or the runtime API's host: the
 *   runtime and its extensions listen there, and its next event is another user's request;
 * - a redirect to another origin only if its address is public: never loopback nor a private
 *   range (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7, …), which the URL as named may be (a
 *   tile server on the admin's own network, or on their machine with `npm start`) and so a
 *   redirect within its origin; at most `maxRedirects` of them;
 * - every address checked as it is connected to (the lookup itself), so a name that resolves
 *   elsewhere the second time (DNS rebinding) is checked again;
 * - at most `maxBytes`, all of it (redirects included) within `timeoutMs`.
 * node:http, node:https and node:dns are loaded when a URL is read: importing them costs an ESM
 * bundle's cold start (shared/http/errors.ts), and most functions that import this read none.
 */

import type { LookupAddress } from 'node:dns';
import type { IncomingMessage } from 'node:http';
import type { BlockList } from 'node:net';
import { lambdaRuntimeApi } from './env.ts';

/** The URL, a redirect or the answer is not one this server reads: the caller's request cannot be met as configured (a 4xx). */
export class UrlRefused extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'UrlRefused';
  }
}

/** The place named did not answer in time, or the connection failed (the upstream's failure). */
export class UrlUnreadable extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'UrlUnreadable';
  }
}

export interface SafeFetchOptions {
  /** The whole exchange, redirects and body included. */
  timeoutMs: number;
  /** The answer's body, in bytes. */
  maxBytes: number;
  /** Redirects followed, each to a public address. */
  maxRedirects: number;
  /** The `Accept` header. */
  accept?: string;
}

export interface SafeFetchResult {
  /** Where the answer came from, after redirects. */
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
}

/** Which hop a host is checked for: the URL as named, or a redirect's target. */
type Hop = 'named' | 'redirect';

const ipv4Never = ['0.0.0.0/8', '169.254.0.0/16', '224.0.0.0/4', '240.0.0.0/4'];
const ipv6Never = ['::/128', 'fe80::/10', 'ff00::/8'];
const ipv4Loopback = ['127.0.0.0/8'];
const ipv6Loopback = ['::1/128'];
const ipv4Private = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '192.0.0.0/24', '198.18.0.0/15'];
const ipv6Private = ['fc00::/7', 'fec0::/10'];

interface Lists {
  never: BlockList;
  loopback: BlockList;
  private: BlockList;
}

let lists: Lists | undefined;
const listsOf = async (): Promise<Lists> => {
  if (lists) return lists;
  const { BlockList } = await import('node:net');
  const of = (ipv4: string[], ipv6: string[]): BlockList => {
    const list = new BlockList();
    for (const range of ipv4) list.addSubnet(range.split('/')[0] ?? '', Number(range.split('/')[1]), 'ipv4');
    for (const range of ipv6) list.addSubnet(range.split('/')[0] ?? '', Number(range.split('/')[1]), 'ipv6');
    return list;
  };
  lists = { never: of(ipv4Never, ipv6Never), loopback: of(ipv4Loopback, ipv6Loopback), private: of(ipv4Private, ipv6Private) };
  return lists;
};

/** An IPv6 address that carries an IPv4 one (`::ffff:a.b.c.d`, NAT64's `64:ff9b::/96`), as that IPv4 address. */
const embeddedIpv4 = (address: string): string | undefined => {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = Number.parseInt(hex[1] ?? '0', 16);
  const low = Number.parseInt(hex[2] ?? '0', 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
};

/** The Lambda runtime API's host (`127.0.0.1:9001` deployed), or undefined off Lambda (read each time: tests set it). */
const runtimeApiHost = (): string | undefined => {
  const value = lambdaRuntimeApi();
  if (!value) return undefined;
  const bracketed = /^\[([^\]]+)\]/.exec(value);
  return (bracketed ? bracketed[1] : value.split(':')[0])?.toLowerCase();
};

/** Why an address may not be connected to on this hop, or undefined when it may. */
const refusalOf = async (address: string, family: 4 | 6, hop: Hop): Promise<string | undefined> => {
  const { never, loopback, private: internal } = await listsOf();
  const v4 = family === 6 ? embeddedIpv4(address) : address;
  const [value, type] = v4 ? ([v4, 'ipv4'] as const) : ([address, 'ipv6'] as const);
  const within = (list: BlockList): boolean => {
    try {
      return list.check(value, type);
    } catch {
      // An address BlockList cannot read (an IPv6 zone, `fe80::1%eth0`): in every list, so refused.
      return true;
    }
  };
  const runtime = runtimeApiHost();
  if (within(never)) return `${address} is a link-local, unspecified or reserved address`;
  if (runtime !== undefined && (value === runtime || address.toLowerCase() === runtime)) return `${address} is the Lambda runtime API`;
  if (within(loopback) && (runtime !== undefined || hop === 'redirect'))
    return runtime !== undefined ? `${address} is loopback, where the Lambda runtime API listens` : `a redirect to ${address} (loopback)`;
  if (within(internal) && hop === 'redirect') return `a redirect to ${address} (a private address)`;
  return undefined;
};

/** The host of a URL as a bare address when it is one (`[::1]` → `::1`), with its family. */
const literalAddress = async (url: URL): Promise<{ address: string; family: 4 | 6 } | undefined> => {
  const { isIP } = await import('node:net');
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const family = isIP(host);
  return family === 4 || family === 6 ? { address: host, family } : undefined;
};

const redirects = new Set([301, 302, 303, 307, 308]);

/** One GET of one hop: its answer's head and body, or a redirect's target. */
const getOnce = async (
  url: URL,
  hop: Hop,
  options: SafeFetchOptions,
  deadline: AbortSignal,
): Promise<{ status: number; contentType: string; location?: string; body: Buffer }> => {
  const runtime = runtimeApiHost();
  if (runtime !== undefined && url.hostname.toLowerCase() === runtime) throw new UrlRefused(`${url.hostname} is the Lambda runtime API`);
  const literal = await literalAddress(url);
  if (literal) {
    const refusal = await refusalOf(literal.address, literal.family, hop);
    if (refusal) throw new UrlRefused(refusal);
  }
  const [{ request }, dns] = await Promise.all([
    url.protocol === 'https:' ? import('node:https') : import('node:http'),
    import('node:dns'),
  ]);
  // Every address the name resolves to is checked, as the socket connects (DNS rebinding meets the check again).
  const lookup = (
    hostname: string,
    lookupOptions: { all?: boolean; family?: number },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    dns.lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      void (async () => {
        for (const each of addresses) {
          const refusal = await refusalOf(each.address, each.family === 6 ? 6 : 4, hop);
          if (refusal) return callback(new UrlRefused(`${hostname}: ${refusal}`), '');
        }
        const [first] = addresses;
        if (!first) return callback(new UrlUnreadable(`${hostname} has no address`), '');
        if (lookupOptions.all) return callback(null, addresses);
        return callback(null, first.address, first.family);
      })();
    });
  };
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {
      method: 'GET',
      agent: false,
      lookup: lookup as never,
      headers: { accept: options.accept ?? '*/*', 'accept-encoding': 'identity' },
      signal: deadline,
    });
    const fail = (error: unknown) => {
      if (error instanceof UrlRefused || error instanceof UrlUnreadable) reject(error);
      else if (deadline.aborted) reject(new UrlUnreadable(`no answer within ${options.timeoutMs / 1000} s`));
      else reject(new UrlUnreadable(error instanceof Error ? error.message : String(error)));
    };
    outgoing.on('error', fail);
    outgoing.on('response', (incoming: IncomingMessage) => {
      const status = incoming.statusCode ?? 0;
      const contentType = String(incoming.headers['content-type'] ?? '');
      if (redirects.has(status) && incoming.headers.location) {
        incoming.resume();
        resolve({ status, contentType, location: String(incoming.headers.location ?? ''), body: Buffer.alloc(0) });
        return;
      }
      const declared = Number(incoming.headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        outgoing.destroy();
        reject(new UrlRefused(`the answer is larger than ${options.maxBytes} bytes`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      incoming.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) {
          outgoing.destroy();
          reject(new UrlRefused(`the answer is larger than ${options.maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      incoming.on('error', fail);
      incoming.on('end', () => resolve({ status, contentType, body: Buffer.concat(chunks) }));
      // Cut short (the deadline, the peer): settled as a failure unless it ended whole.
      incoming.on('close', () => {
        if (!incoming.complete) fail(new Error('the connection closed before the answer ended'));
      });
    });
    outgoing.end();
  });
};

/**
 * GETs `named` as the rules above allow, following redirects itself: the final answer (any
 * status), or UrlRefused / UrlUnreadable.
 */
export const safeFetch = async (named: string, options: SafeFetchOptions): Promise<SafeFetchResult> => {
  let url: URL;
  try {
    url = new URL(named);
  } catch {
    throw new UrlRefused('not a URL');
  }
  if (url.protocol === 'data:') {
    // Decoded here; no host is reached.
    let response: Response;
    let body: Buffer;
    try {
      response = await fetch(url);
      body = Buffer.from(await response.arrayBuffer());
    } catch {
      throw new UrlRefused('not a readable data URL');
    }
    if (body.length > options.maxBytes) throw new UrlRefused(`the answer is larger than ${options.maxBytes} bytes`);
    return { url: url.href, status: response.status, contentType: response.headers.get('content-type') ?? '', body };
  }
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const origin = url.origin;
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new UrlRefused(`${url.protocol} URLs are not read (only http and https)`);
    // A redirect within the origin named is checked as the URL named (the admin named that host).
    const answer = await getOnce(url, url.origin === origin ? 'named' : 'redirect', options, deadline);
    if (answer.location === undefined) return { url: url.href, status: answer.status, contentType: answer.contentType, body: answer.body };
    if (hop >= options.maxRedirects) throw new UrlRefused(`more than ${options.maxRedirects} redirects`);
    try {
      url = new URL(answer.location, url);
    } catch {
      throw new UrlRefused(`a redirect to an invalid URL (${answer.location})`);
    }
  }
};
