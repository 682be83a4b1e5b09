/**
 * The distribution's viewer-request CloudFront Functions, run here as CloudFront runs them
 * (JavaScript runtime 2.0): the template's code in its own `node:vm` context, `import cf from
 * 'cloudfront'` resolved to the helper module, and CloudFront's event (`event.request` with its
 * method, uri, querystring, lower-cased headers and cookies as `{ name: { value } }`). What the
 * function returns is either the request to pass on (perhaps changed, perhaps to another origin
 * through `cf.selectRequestOriginById`) or a response CloudFront sends itself. The local edge
 * (start.ts) then pipes the request to the origin chosen (docs/deployment.md, "The deployed form,
 * locally").
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createContext, Script } from 'node:vm';

/** A header, cookie or query parameter as CloudFront Functions see it. */
export interface CfValue {
  value: string;
  multiValue?: { value: string }[];
}
export type CfValues = Record<string, CfValue>;

export interface CfRequest {
  method: string;
  uri: string;
  querystring: CfValues;
  headers: CfValues;
  cookies: CfValues;
}

export interface CfResponse {
  statusCode: number;
  statusDescription?: string;
  headers?: CfValues;
  cookies?: CfValues;
  body?: string | { data: string; encoding?: 'text' | 'base64' };
}

/** What a viewer-request function decided: pass the request on (to `origin`, when it selected one), or answer. */
export type EdgeDecision = { request: CfRequest; origin: string | undefined } | { response: CfResponse };

/** The helper module's functions this runs; any other call fails loudly rather than being guessed. */
const unsupported = (name: string) => () => {
  throw new Error(`cloudfront.${name} is not served locally`);
};

/**
 * CloudFront's runtime 2.0 takes `import cf from 'cloudfront'` (and `require('cloudfront')`); a
 * `vm` script takes no import, so each becomes the `require` of the module, which hands in the
 * helper module (and refuses any other: only `cloudfront` is served here).
 */
const withoutImports = (code: string): string =>
  code.replace(/^\s*import\s+([A-Za-z_$][\w$]*)\s+from\s+(['"])([\w-]+)\2\s*;?/gm, "var $1 = require('$3');");

/** Compiles a function's code once; each call runs its handler on one event, in the same context (as a CloudFront worker reuses it). */
export const compileViewerRequest = (code: string, name: string) => {
  let selected: string | undefined;
  const cloudfront = {
    selectRequestOriginById: (id: unknown) => {
      if (typeof id !== 'string' || !id) throw new Error('selectRequestOriginById takes an origin id');
      selected = id;
    },
    updateRequestOrigin: unsupported('updateRequestOrigin'),
    createRequestOriginGroup: unsupported('createRequestOriginGroup'),
    kvs: unsupported('kvs'),
  };
  const context = createContext({
    require: (module: string) => {
      if (module === 'cloudfront') return cloudfront;
      throw new Error(`${name}: module ${module} is not served locally`);
    },
  });
  new Script(`${withoutImports(code)}\n`, { filename: `${name}.js` }).runInContext(context, { timeout: 1000 });
  const handler = new Script('handler', { filename: `${name}.js` }).runInContext(context) as unknown;
  if (typeof handler !== 'function') throw new Error(`${name}: the function's code defines no handler`);
  return async (request: CfRequest, viewerIp: string): Promise<EdgeDecision> => {
    selected = undefined;
    const event = {
      version: '1.0',
      context: {
        distributionDomainName: 'local.cloudfront.net',
        distributionId: 'LOCAL',
        eventType: 'viewer-request',
        requestId: randomBytes(16).toString('base64url'),
      },
      viewer: { ip: viewerIp },
      // The function's own copy: what it returns is what CloudFront goes on with.
      request: JSON.parse(JSON.stringify(request)) as CfRequest,
    };
    const result = (await (handler as (event: unknown) => unknown)(event)) as Partial<CfRequest & CfResponse> | undefined;
    if (!result || typeof result !== 'object') throw new Error(`${name}: the handler returned neither a request nor a response`);
    if (typeof result.statusCode === 'number') return { response: result as CfResponse };
    return {
      request: {
        method: request.method,
        uri: typeof result.uri === 'string' ? result.uri : request.uri,
        querystring: result.querystring ?? {},
        headers: result.headers ?? {},
        cookies: result.cookies ?? {},
      },
      origin: selected,
    };
  };
};

const values = (entries: [string, string][]): CfValues => {
  const out: CfValues = {};
  for (const [key, value] of entries) {
    const existing = out[key];
    if (existing) existing.multiValue = [...(existing.multiValue ?? [{ value: existing.value }]), { value }];
    else out[key] = { value };
  }
  return out;
};

const each = (entry: CfValue): string[] => (entry.multiValue ?? [entry]).map((item) => item.value);

/** The viewer's request as CloudFront hands it to a function: headers lower-cased, the cookie header as `cookies`. */
export const toCfRequest = (req: IncomingMessage): CfRequest => {
  const url = new URL(req.url ?? '/', 'http://edge.local');
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (name === 'cookie' || value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.push([name.toLowerCase(), one]);
  }
  const cookies = (req.headers.cookie ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part): [string, string] => {
      const at = part.indexOf('=');
      return at < 0 ? [part, ''] : [part.slice(0, at), part.slice(at + 1)];
    });
  return {
    method: req.method ?? 'GET',
    uri: url.pathname,
    querystring: values([...url.searchParams]),
    headers: values(headers),
    cookies: values(cookies),
  };
};

/** The request line's target (`/api/assets?x=1`) of a request a function passed on. */
export const targetOf = (request: CfRequest): string => {
  const query = new URLSearchParams();
  for (const [key, entry] of Object.entries(request.querystring)) for (const value of each(entry)) query.append(key, value);
  const search = query.toString();
  return `${request.uri}${search ? `?${search}` : ''}`;
};

/** The headers of a request a function passed on, its cookies back in one `cookie` header. */
export const headersOf = (request: CfRequest): IncomingHttpHeaders => {
  const headers: IncomingHttpHeaders = {};
  for (const [name, entry] of Object.entries(request.headers)) {
    const all = each(entry);
    headers[name.toLowerCase()] = name.toLowerCase() === 'set-cookie' ? all : all.join(', ');
  }
  const cookies = Object.entries(request.cookies).flatMap(([name, entry]) => each(entry).map((value) => `${name}=${value}`));
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  return headers;
};

/** Writes a response a function generated, as CloudFront sends it to the viewer. */
export const writeCfResponse = (res: ServerResponse, response: CfResponse): void => {
  const headers: Record<string, string | string[]> = {};
  for (const [name, entry] of Object.entries(response.headers ?? {})) headers[name.toLowerCase()] = each(entry).join(', ');
  const cookies = Object.entries(response.cookies ?? {}).map(([name, entry]) => `${name}=${entry.value}`);
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  const body =
    response.body === undefined
      ? Buffer.alloc(0)
      : typeof response.body === 'string'
        ? Buffer.from(response.body)
        : Buffer.from(response.body.data, response.body.encoding === 'base64' ? 'base64' : 'utf8');
  headers['content-length'] = String(body.length);
  // The request's body (if any) is not read: the connection ends with this answer.
  headers.connection = 'close';
  if (response.statusDescription) res.writeHead(response.statusCode, response.statusDescription, headers);
  else res.writeHead(response.statusCode, headers);
  res.end(body);
};
