import { handler as completeHandler } from '#functions/asset/complete-upload-session.ts';
import { handler as createHandler } from '#functions/asset/create-upload-session.ts';
import { handler as deleteHandler } from '#functions/asset/delete-upload-session.ts';
import { handler as getHandler } from '#functions/asset/get-upload-session.ts';
import { handler as putPartHandler } from '#functions/asset/put-upload-part.ts';
import { bearer } from './accounts.ts';
import { invoke, type Reply } from './invoke.ts';
import { sha1 } from './uploads.ts';

export const mebibyte = 1024 * 1024;
export const minPart = 5 * mebibyte;

/** The file cut into parts of `partSize`, with each part's SHA-1 (what a client sends to open a session). */
export const partsOf = (data: Buffer, partSize = minPart): Buffer[] =>
  Array.from({ length: Math.max(1, Math.ceil(data.length / partSize)) }, (_, index) =>
    data.subarray(index * partSize, (index + 1) * partSize),
  );

export const sessionBody = (data: Buffer, fileName: string, extra: Record<string, unknown> = {}, partSize = minPart) => ({
  deviceAssetId: `${fileName}-${data.length}`,
  deviceId: 'session-test',
  fileCreatedAt: '2024-01-02T03:04:05.000Z',
  fileModifiedAt: '2024-01-02T03:04:05.000Z',
  fileName,
  size: data.length,
  checksum: sha1(data, 'hex'),
  partSize,
  partChecksums: partsOf(data, partSize).map((part) => sha1(part, 'base64')),
  ...extra,
});

export const createSession = (token: string, body: unknown): Promise<Reply> =>
  invoke(createHandler, { method: 'POST', path: '/api/asset/upload-session', headers: bearer(token), body });

const sessionCall = (sessionId: string, suffix = '') => ({
  path: `/api/asset/upload-session/${sessionId}${suffix}`,
  pathParameters: { sessionId },
});

export const getSession = (token: string, sessionId: string): Promise<Reply> =>
  invoke(getHandler, { method: 'GET', headers: bearer(token), ...sessionCall(sessionId) });
export const completeSession = (token: string, sessionId: string): Promise<Reply> =>
  invoke(completeHandler, { method: 'POST', headers: bearer(token), ...sessionCall(sessionId, '/complete') });
export const deleteSession = (token: string, sessionId: string): Promise<Reply> =>
  invoke(deleteHandler, { method: 'DELETE', headers: bearer(token), ...sessionCall(sessionId) });

/** PUTs one part to the URL the session gave (the local part route), with the headers it named. */
export const putPart = (target: { url: string; headers: Record<string, string> }, body: Buffer, headers: Record<string, string> = {}) => {
  const url = new URL(target.url, 'http://localhost');
  const [, sessionId = '', partNumber = ''] = /upload-session\/([^/]+)\/part\/(\d+)$/.exec(url.pathname) ?? [];
  return invoke(putPartHandler, {
    method: 'PUT',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    pathParameters: { sessionId, partNumber },
    headers: { 'content-type': 'application/octet-stream', ...target.headers, ...headers },
    body,
  });
};

/** A whole upload through a session: open, every part, complete. */
export const uploadThroughSession = async (token: string, data: Buffer, fileName: string, extra: Record<string, unknown> = {}) => {
  const created = await createSession(token, sessionBody(data, fileName, extra));
  if (created.status !== 201) return created;
  const parts = partsOf(data);
  for (const target of created.body.parts) {
    const sent = await putPart(target, parts[target.partNumber - 1] ?? Buffer.alloc(0));
    if (sent.status !== 200) throw new Error(`part ${target.partNumber}: ${sent.status} ${JSON.stringify(sent.body)}`);
  }
  return completeSession(token, created.body.sessionId);
};
