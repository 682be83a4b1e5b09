import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteUserHandler } from '#functions/user/delete-user.ts';
import { handler as userInfoHandler } from '#functions/user/get-my-user-info.ts';
import { FileStore } from '#shared/storage/file-store.ts';
import { bearer, createUser, freshUser, login, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { assetInfo } from '../support/library.ts';
import { makeJpeg, makeSidecar } from '../support/photos.ts';
import {
  completeSession,
  createSession,
  deleteSession,
  getSession,
  mebibyte,
  minPart,
  partsOf,
  putPart,
  sessionBody,
  uploadThroughSession,
} from '../support/sessions.ts';
import { tableItems, uploadFootprint } from '../support/table-items.ts';
import { sha1, storedFiles, upload } from '../support/uploads.ts';
import { makeVideo } from '../support/videos.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

/** A real photo, padded past `size` after its end (decoders stop at the JPEG's end marker). */
const largeJpeg = (size: number, spec: Parameters<typeof makeJpeg>[0] = {}): Buffer => {
  const photo = makeJpeg({ width: 64, height: 48, ...spec });
  return Buffer.concat([photo, randomBytes(Math.max(0, size - photo.length))]);
};

const usageOf = async (token: string): Promise<number> =>
  (await invoke(userInfoHandler, { method: 'GET', path: '/api/user/me', headers: bearer(token) })).body.quotaUsageInBytes as number;

/** What a refused session must not leave: no asset, no session item, no stored file or part, no usage. */
const footprint = async (token: string) => ({
  table: await uploadFootprint(),
  sessions: (await tableItems('uploadSession')).length,
  files: await storedFiles(),
  usage: await usageOf(token),
});

describe('upload sessions (POST /asset/upload-session …)', () => {
  it('uploads a file in parts: the asset has its checksum, metadata, sidecar and size; parts are listed for a resume', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Session${Date.now()}`)).accessToken;
    const data = largeJpeg(minPart + 300_000, {
      make: 'Canon',
      model: 'EOS R5',
      dateTimeOriginal: '2023:07:14 18:30:00',
      offsetTimeOriginal: '+02:00',
    });
    const sidecar = makeSidecar({ description: 'From the sidecar' }).toString('utf8');
    const created = await createSession(token, sessionBody(data, 'BIG.jpg', { sidecarData: sidecar, isFavorite: true }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ duplicate: false, fileName: 'BIG.jpg', size: data.length, partSize: minPart });
    expect(created.body.parts).toHaveLength(2);
    expect(created.body.parts[0]).toMatchObject({
      partNumber: 1,
      uploaded: false,
      headers: { 'x-amz-checksum-sha1': sha1(partsOf(data)[0] as Buffer, 'base64') },
    });

    // One part sent: the session says so, with fresh URLs for both.
    const parts = partsOf(data);
    expect((await putPart(created.body.parts[0], parts[0] as Buffer)).status).toBe(200);
    const status = await getSession(token, created.body.sessionId);
    expect(status.status).toBe(200);
    expect(status.body.parts.map((part: { uploaded: boolean }) => part.uploaded)).toEqual([true, false]);
    expect((await completeSession(token, created.body.sessionId)).body).toMatchObject({
      statusCode: 400,
      message: 'Part(s) 2 of 2 were not uploaded',
    });

    expect((await putPart(status.body.parts[1], parts[1] as Buffer)).status).toBe(200);
    const done = await completeSession(token, created.body.sessionId);
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body).toEqual({ id: created.body.id, duplicate: false });

    const asset = (await assetInfo(token, done.body.id)).body;
    expect(asset).toMatchObject({
      checksum: sha1(data, 'base64'),
      originalFileName: 'BIG.jpg',
      isFavorite: true,
      fileCreatedAt: '2023-07-14T16:30:00.000Z',
      exifInfo: { make: 'Canon', model: 'EOS R5', fileSizeInByte: data.length, description: 'From the sidecar', exifImageWidth: 64 },
    });
    expect(await usageOf(token)).toBe(data.length);
    expect(await tableItems('uploadSession')).not.toContainEqual(expect.objectContaining({ id: created.body.sessionId }));
    // The same file again: answered at once, nothing to send.
    expect((await createSession(token, sessionBody(data, 'again.jpg'))).body).toEqual({ id: done.body.id, duplicate: true });
    // And through Immich's own route too.
    expect((await upload(token, { data })).body).toEqual({ id: done.body.id, duplicate: true });
  });

  it('reads a video’s metadata from its boxes (moov after the media data) without reading the whole file', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `SessionVideo${Date.now()}`)).accessToken;
    const clip = makeVideo({ seconds: 2, width: 320, height: 240, creationTime: '2022-05-06T07:08:09.000Z' });
    // The media data padded past the 4 MiB read from the start: the moov must be found by its box header.
    const moovAt = clip.indexOf('moov') - 4;
    const mdatAt = clip.indexOf('mdat') - 4;
    expect(mdatAt).toBeLessThan(moovAt);
    const mdatSize = clip.readUInt32BE(mdatAt);
    const padding = 6 * 1024 * 1024;
    const video = Buffer.concat([
      clip.subarray(0, mdatAt),
      Buffer.alloc(4),
      clip.subarray(mdatAt + 4, mdatAt + mdatSize),
      Buffer.alloc(padding),
      clip.subarray(mdatAt + mdatSize),
    ]);
    video.writeUInt32BE(mdatSize + padding, mdatAt);
    const done = await uploadThroughSession(token, video, 'CLIP.mp4');
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    const asset = (await assetInfo(token, done.body.id)).body;
    expect(asset).toMatchObject({ type: 'VIDEO', duration: '00:00:02.000', fileCreatedAt: '2022-05-06T07:08:09.000Z' });
    expect(asset.exifInfo).toMatchObject({ exifImageWidth: 320, exifImageHeight: 240, fileSizeInByte: video.length });
  });

  it('refuses a file over the quota before anything is sent', async () => {
    await createUser(accounts.admin.accessToken, {
      email: 'session-quota@immich.cloud',
      password: 'password',
      name: 'Q',
      quotaSizeInBytes: 1000,
    });
    const { accessToken } = await login({ email: 'session-quota@immich.cloud', password: 'password' });
    const before = await footprint(accessToken);
    const reply = await createSession(accessToken, sessionBody(largeJpeg(5000), 'Q.jpg'));
    expect(reply.body).toEqual({ message: 'Quota has been exceeded!', error: 'Bad Request', statusCode: 400 });
    expect(await footprint(accessToken)).toEqual(before);
  });

  it('a file that is not the SHA-1 it declared: 400 at completion, and nothing is left', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `SessionSha${Date.now()}`)).accessToken;
    const data = largeJpeg(200_000);
    const before = await footprint(token);
    const declared = sha1(largeJpeg(200_000), 'hex');
    const created = await createSession(token, { ...sessionBody(data, 'LIE.jpg'), checksum: declared });
    expect(created.status).toBe(201);
    expect((await putPart(created.body.parts[0], data)).status).toBe(200);
    const reply = await completeSession(token, created.body.sessionId);
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe(`The file's SHA-1 is ${sha1(data, 'hex')}, not the ${declared} its session declared`);
    expect(await footprint(token)).toEqual(before);
  });

  it('a part that is not its declared bytes, or a URL not signed for it, is refused', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `SessionPart${Date.now()}`)).accessToken;
    const data = largeJpeg(100_000);
    const created = await createSession(token, sessionBody(data, 'P.jpg'));
    const target = created.body.parts[0];
    const other = largeJpeg(100_000);
    expect((await putPart(target, other)).body).toMatchObject({ statusCode: 400, message: 'The part does not match its SHA-1' });
    expect((await putPart(target, data.subarray(1))).body.message).toBe(`Part 1 must be ${data.length} bytes, not ${data.length - 1}`);
    expect((await putPart(target, data, { 'x-amz-checksum-sha1': sha1(other, 'base64') })).status).toBe(400);
    const forged = { ...target, url: target.url.replace(/signature=[^&]+/, 'signature=forged') };
    expect((await putPart(forged, data)).body).toMatchObject({ statusCode: 403, message: 'The part URL is not valid' });
    expect((await getSession(token, created.body.sessionId)).body.parts[0].uploaded).toBe(false);
    expect((await deleteSession(token, created.body.sessionId)).status).toBe(204);
  });

  it('a part never sent: 400 naming it; deleting the session leaves nothing', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `SessionGap${Date.now()}`)).accessToken;
    const before = await footprint(token);
    const data = largeJpeg(2 * minPart + 10);
    const created = await createSession(token, sessionBody(data, 'GAP.jpg'));
    const parts = partsOf(data);
    await putPart(created.body.parts[0], parts[0] as Buffer);
    await putPart(created.body.parts[2], parts[2] as Buffer);
    expect((await completeSession(token, created.body.sessionId)).body).toEqual({
      message: 'Part(s) 2 of 3 were not uploaded',
      error: 'Bad Request',
      statusCode: 400,
    });
    expect((await deleteSession(token, created.body.sessionId)).status).toBe(204);
    expect(await footprint(token)).toEqual(before);
    expect((await getSession(token, created.body.sessionId)).body.message).toBe('Not found or no asset.upload access');
  });

  it('an expired session: 400, its parts dropped and its item gone', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `SessionOld${Date.now()}`)).accessToken;
    const before = await footprint(token);
    const data = largeJpeg(50_000);
    const created = await createSession(token, sessionBody(data, 'OLD.jpg'));
    await putPart(created.body.parts[0], data);
    // A day passes (the session's expiry moved back; DynamoDB's TTL would remove the item later still).
    await DynamoDBDocumentClient.from(new DynamoDBClient({})).send(
      new UpdateCommand({
        TableName: process.env.TABLE_NAME,
        Key: { pk: `UPLOADSESSION#${created.body.sessionId}`, sk: 'UPLOADSESSION' },
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    expect((await completeSession(token, created.body.sessionId)).body).toEqual({
      message: 'Upload session expired',
      error: 'Bad Request',
      statusCode: 400,
    });
    expect(await footprint(token)).toEqual(before);
    expect((await putPart(created.body.parts[0], data)).status).toBe(403);
  });

  it('another user’s session is not found, for every operation; bad input is a 400', async () => {
    const owner = (await freshUser(accounts.admin.accessToken, `SessionOwner${Date.now()}`)).accessToken;
    const data = largeJpeg(10_000);
    const created = await createSession(owner, sessionBody(data, 'MINE.jpg'));
    await putPart(created.body.parts[0], data);
    const other = accounts.user2.accessToken;
    const notFound = { message: 'Not found or no asset.upload access', error: 'Bad Request', statusCode: 400 };
    expect((await getSession(other, created.body.sessionId)).body).toEqual(notFound);
    expect((await completeSession(other, created.body.sessionId)).body).toEqual(notFound);
    expect((await deleteSession(other, created.body.sessionId)).body).toEqual(notFound);
    // Still the owner's, whole.
    expect((await completeSession(owner, created.body.sessionId)).status).toBe(201);

    const body = sessionBody(data, 'X.jpg');
    const refused = async (changes: Record<string, unknown>, message: string | string[]) => {
      const reply = await createSession(owner, { ...body, ...changes });
      expect(reply.status, JSON.stringify(reply.body)).toBe(400);
      expect(reply.body.message).toEqual(message);
    };
    await refused({ fileName: 'notes.txt' }, 'Unsupported file type notes.txt');
    await refused({ partChecksums: [] }, ['partChecksums must have one SHA-1 for each part (size divided by partSize, rounded up)']);
    await refused({ partSize: 1024 }, ['partSize must not be less than 5242880']);
    await refused({ checksum: 'abc' }, ['checksum must be a SHA-1 (hex or base64)']);
    await refused({ size: 5 * 1024 ** 3 }, ['size must not be greater than 4294967296']);
    expect((await createSession(owner, { ...body, deviceId: undefined })).body.message).toContain('deviceId should not be empty');
  });
});

describe('GET /asset/upload-session/openapi.json', () => {
  it('describes every upload-session route of the route table, with the limits the schema enforces', async () => {
    const { handler } = await import('#functions/asset/get-upload-sessions-api.ts');
    const { routes } = await import('#infra/routes.ts');
    const reply = await invoke(handler, { method: 'GET', path: '/api/asset/upload-session/openapi.json' });
    expect(reply.status).toBe(200);
    expect(reply.body.openapi).toBe('3.0.3');
    const described = Object.entries(reply.body.paths as Record<string, Record<string, { operationId: string }>>).flatMap(
      ([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => `${method.toUpperCase()} /api${path} ${operation.operationId}`),
    );
    const served = routes
      .filter((route) => route.entry.includes('upload-session.ts'))
      .map((route) => `${route.method} ${route.path} ${route.operationId}`);
    expect(described.sort()).toEqual(served.sort());
    expect(reply.body.components.schemas.CreateUploadSessionDto.properties.size.maximum).toBe(4 * 1024 ** 3);
  });
});

describe('completing a session twice at once', () => {
  it('makes one asset; every answer is 201 with its id (it is safe to repeat), never a 500', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Twice${Date.now()}`)).accessToken;
    for (let round = 0; round < 4; round++) {
      const data = largeJpeg(minPart + 1000 + round, { comment: `twice ${round}` });
      const created = await createSession(token, sessionBody(data, `TWICE${round}.jpg`));
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const parts = partsOf(data);
      for (const target of created.body.parts) expect((await putPart(target, parts[target.partNumber - 1] as Buffer)).status).toBe(200);
      const replies = await Promise.all([completeSession(token, created.body.sessionId), completeSession(token, created.body.sessionId)]);
      for (const reply of replies) expect(reply.body, JSON.stringify(reply.body)).toEqual({ id: created.body.id, duplicate: false });
      expect((await tableItems('asset')).filter((item) => item.id === created.body.id)).toHaveLength(1);
    }
  });
});

describe('open sessions hold their declared size of the quota', () => {
  const quotaUser = async (name: string, quotaSizeInBytes: number | null) => {
    const credentials = { email: `${name.toLowerCase()}${Date.now()}@immich.cloud`, password: 'password', name };
    await createUser(accounts.admin.accessToken, { ...credentials, quotaSizeInBytes });
    return login(credentials);
  };
  const holdsOf = async (userId: string) => (await tableItems('user')).find((item) => item.id === userId)?.uploadSessions;

  it('a session counts from the moment it opens, against sessions and uploads alike; it frees its hold when it ends', async () => {
    // 12 MB: one 7 MB session fits, a second does not (the red team held 57.7 MB of parts in five).
    const user = await quotaUser('Held', 12 * mebibyte);
    const first = largeJpeg(7 * mebibyte, { comment: 'first' });
    const second = largeJpeg(7 * mebibyte, { comment: 'second' });
    const opened = await createSession(user.accessToken, sessionBody(first, 'FIRST.jpg'));
    expect(opened.status).toBe(201);
    expect((await createSession(user.accessToken, sessionBody(second, 'SECOND.jpg'))).body).toEqual({
      message: 'Quota has been exceeded!',
      error: 'Bad Request',
      statusCode: 400,
    });
    // A whole upload meets the same hold: 6 MB would fit the usage (0) but not beside the 7 MB held.
    const direct = await upload(user.accessToken, { data: largeJpeg(6 * mebibyte, { comment: 'direct' }), fileName: 'DIRECT.jpg' });
    expect(direct.body).toEqual({ message: 'Quota has been exceeded!', error: 'Bad Request', statusCode: 400 });
    // Deleted, the session holds nothing: the second opens.
    expect((await deleteSession(user.accessToken, opened.body.sessionId)).status).toBe(204);
    expect(await holdsOf(user.userId)).toEqual({});
    const reopened = await createSession(user.accessToken, sessionBody(second, 'SECOND.jpg'));
    expect(reopened.status).toBe(201);
    // Completed, its file is the usage and its hold is gone (not counted twice).
    const parts = partsOf(second);
    for (const target of reopened.body.parts) expect((await putPart(target, parts[target.partNumber - 1] as Buffer)).status).toBe(200);
    expect((await completeSession(user.accessToken, reopened.body.sessionId)).status).toBe(201);
    expect(await usageOf(user.accessToken)).toBe(second.length);
    expect(await holdsOf(user.userId)).toEqual({});
  });

  it('sessions opened at once never hold more than the quota, nor more than ten', async () => {
    const limited = await quotaUser('HeldRace', 3 * 400_000);
    const files = Array.from({ length: 8 }, (_, index) => largeJpeg(400_000, { comment: `race ${index}` }));
    const replies = await Promise.all(files.map((file, index) => createSession(limited.accessToken, sessionBody(file, `R${index}.jpg`))));
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 201, 201, 400, 400, 400, 400, 400]);
    for (const reply of replies.filter((r) => r.status === 400)) expect(reply.body.message).toBe('Quota has been exceeded!');
    expect(Object.keys((await holdsOf(limited.userId)) ?? {})).toHaveLength(3);

    const unlimited = await quotaUser('ManySessions', null);
    const many = Array.from({ length: 12 }, (_, index) => largeJpeg(20_000, { comment: `many ${index}` }));
    const opened = await Promise.all(many.map((file, index) => createSession(unlimited.accessToken, sessionBody(file, `M${index}.jpg`))));
    expect(opened.map((reply) => reply.status).sort()).toEqual([...Array(10).fill(201), 400, 400]);
    expect(opened.find((reply) => reply.status === 400)?.body.message).toBe(
      'At most 10 upload sessions may be open at once; complete or delete one first',
    );
    // One ends: one more may open.
    const ended = opened.find((reply) => reply.status === 201);
    expect((await deleteSession(unlimited.accessToken, ended?.body.sessionId)).status).toBe(204);
    const refused = many[opened.findIndex((reply) => reply.status === 400)] as Buffer;
    expect((await createSession(unlimited.accessToken, sessionBody(refused, 'AGAIN.jpg'))).status).toBe(201);
  });

  it('an expired session holds nothing', async () => {
    const user = await quotaUser('HeldExpired', 600_000);
    const opened = await createSession(user.accessToken, sessionBody(largeJpeg(500_000, { comment: 'old' }), 'OLD.jpg'));
    expect(opened.status).toBe(201);
    // A day passes for its hold (as for its session item in the test above).
    await DynamoDBDocumentClient.from(new DynamoDBClient({})).send(
      new UpdateCommand({
        TableName: process.env.TABLE_NAME,
        Key: { pk: `USER#${user.userId}`, sk: 'USER' },
        UpdateExpression: 'SET uploadSessions.#session.expiresAt = :past',
        ExpressionAttributeNames: { '#session': opened.body.sessionId },
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    const next = await createSession(user.accessToken, sessionBody(largeJpeg(500_000, { comment: 'new' }), 'NEW.jpg'));
    expect(next.status).toBe(201);
    // The expired hold went with the new one's write.
    expect(Object.keys((await holdsOf(user.userId)) ?? {})).toEqual([next.body.sessionId]);
  });
});

describe('sessions of a deleted user, abandoned sessions, and parts over the local limit', () => {
  it('a deleted user’s part URLs take no more bytes: their sessions end with them', async () => {
    const user = await freshUser(accounts.admin.accessToken, `SessionGone${Date.now()}`);
    const data = largeJpeg(2 * minPart + 10, { comment: 'gone' });
    const created = await createSession(user.accessToken, sessionBody(data, 'GONE.jpg'));
    const parts = partsOf(data);
    expect((await putPart(created.body.parts[0], parts[0] as Buffer)).status).toBe(200);
    const { uploadId } = (await tableItems('uploadSession')).find((item) => item.id === created.body.sessionId) ?? {};
    expect((await storedFiles()).filter((file) => file.startsWith(`.multipart/${uploadId}/`))).toHaveLength(2);
    const deleted = await invoke(deleteUserHandler, {
      method: 'DELETE',
      path: `/api/user/${user.userId}`,
      pathParameters: { id: user.userId },
      headers: bearer(accounts.admin.accessToken),
    });
    expect(deleted.status).toBe(200);
    expect((await putPart(created.body.parts[1], parts[1] as Buffer)).status).toBe(403);
    // Its item and its parts are gone.
    expect((await tableItems('uploadSession')).find((item) => item.id === created.body.sessionId)).toBeUndefined();
    expect((await storedFiles()).filter((file) => file.startsWith(`.multipart/${uploadId}/`))).toEqual([]);
  });

  it('locally, a multipart upload started over a day ago is aborted, as the bucket’s lifecycle rule aborts it', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `SessionSwept${Date.now()}`)).accessToken;
    const data = largeJpeg(50_000, { comment: 'swept' });
    const created = await createSession(token, sessionBody(data, 'SWEPT.jpg'));
    const store = new FileStore(process.env.ORIGINALS_DIR ?? '');
    const started = (await storedFiles()).filter((file) => file.startsWith('.multipart/') && file.endsWith('/started'));
    expect(started.length).toBeGreaterThan(0);
    // Its start moved back a day and a minute; every other open upload is younger.
    const session = (await tableItems('uploadSession')).find((item) => item.id === created.body.sessionId);
    const startedFile = join(process.env.ORIGINALS_DIR ?? '', '.multipart', String(session?.uploadId), 'started');
    await writeFile(startedFile, String(Date.now() - 24 * 3600 * 1000 - 60_000));
    expect(await store.abortAbandoned()).toEqual([session?.uploadId]);
    expect((await putPart(created.body.parts[0], data)).body.message).toBe('The upload session has ended');
  });

  it('locally, a part larger than the server’s upload limit is refused when the session opens', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `SessionBig${Date.now()}`)).accessToken;
    const previous = process.env.MAX_UPLOAD_MB;
    process.env.MAX_UPLOAD_MB = '6';
    try {
      const data = largeJpeg(8 * mebibyte, { comment: 'big parts' });
      const reply = await createSession(token, sessionBody(data, 'BIG.jpg', {}, 7 * mebibyte));
      expect(reply.body).toEqual({
        message: `partSize must be at most ${6 * mebibyte} bytes here: the server takes each part within its upload limit`,
        error: 'Bad Request',
        statusCode: 400,
      });
      expect((await createSession(token, sessionBody(data, 'SMALL.jpg'))).status).toBe(201);
    } finally {
      if (previous === undefined) delete process.env.MAX_UPLOAD_MB;
      else process.env.MAX_UPLOAD_MB = previous;
    }
  });
});
