import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createUserHandler } from '#functions/user/create-user.ts';
import { handler as getMyUserInfo } from '#functions/user/get-my-user-info.ts';
import { UserResponseDto } from '#shared/dto/v1/user.response.ts';
import { bearer, fixtures, freshUser, login, signUpAdmin } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';

let adminToken: string;
beforeAll(async () => {
  await signUpAdmin();
  adminToken = (await login(fixtures.admin)).accessToken;
});

const create = (body: unknown, headers: Record<string, string> = bearer(adminToken)) =>
  invoke(createUserHandler, { method: 'POST', path: '/api/user', headers, body });

describe('POST /user (createUser)', () => {
  it('requires authentication', async () => {
    expect(await create(fixtures.user1, {})).toMatchObject({ status: 401, body: { message: 'Authentication required' } });
  });

  it.each([
    ['null email', { ...fixtures.user1, email: null }, ['email must be an email']],
    ['null name', { ...fixtures.user1, name: null }, ['name must be a string', 'name should not be empty']],
    ['null password', { ...fixtures.user1, password: null }, ['password must be a string', 'password should not be empty']],
    ['a zero quota', { ...fixtures.user1, quotaSizeInBytes: 0 }, ['quotaSizeInBytes must be a positive number']],
    [
      'a text quota',
      { ...fixtures.user1, quotaSizeInBytes: 'lots' },
      ['quotaSizeInBytes must be a positive number', 'quotaSizeInBytes must be a number conforming to the specified constraints'],
    ],
    ['a non-boolean memoriesEnabled', { ...fixtures.user1, memoriesEnabled: 'yes' }, ['memoriesEnabled must be a boolean value']],
  ])('does not allow %s', async (_what, body, message) => {
    expect(await create(body)).toMatchObject({ status: 400, body: { message, error: 'Bad Request', statusCode: 400 } });
  });

  it('ignores isAdmin and applies Immich defaults', async () => {
    const reply = await create({ ...fixtures.user1, isAdmin: true });
    expect(reply.status).toBe(201);
    expect(v.parse(UserResponseDto, reply.body)).toMatchObject({
      email: 'user1@immich.cloud',
      name: 'User 1',
      isAdmin: false,
      shouldChangePassword: true,
      memoriesEnabled: true,
      storageLabel: null,
      avatarColor: 'red',
      quotaSizeInBytes: null,
      quotaUsageInBytes: 0,
      status: 'active',
    });
  });

  it('creates a user without memories enabled, with a quota and without a forced password change', async () => {
    const reply = await create({
      email: 'user3@immich.cloud',
      password: 'p',
      name: 'User 3',
      memoriesEnabled: 'false',
      quotaSizeInBytes: 1024,
      shouldChangePassword: false,
    });
    expect(reply).toMatchObject({ status: 201, body: { memoriesEnabled: false, quotaSizeInBytes: 1024, shouldChangePassword: false } });
  });

  it('rejects an email that exists, whatever its case', async () => {
    expect((await create({ email: 'twice@immich.cloud', password: 'password', name: 'Twice' })).status).toBe(201);
    expect(await create({ email: 'TWICE@immich.cloud', password: 'password', name: 'Twice' })).toMatchObject({
      status: 400,
      body: { message: 'User exists', error: 'Bad Request', statusCode: 400 },
    });
  });

  it('sanitises the storage label and keeps it unique (a 400, where Immich v1.100 gave a 500)', async () => {
    const reply = await create({ email: 'label@immich.cloud', password: 'p', name: 'L', storageLabel: 'my.label/../x' });
    expect(reply).toMatchObject({ status: 201, body: { storageLabel: 'mylabelx' } });
    expect(await create({ email: 'label2@immich.cloud', password: 'p', name: 'L', storageLabel: 'mylabelx' })).toMatchObject({
      status: 400,
      body: { message: 'Storage label already in use by another account' },
    });
    expect(await create({ email: 'label3@immich.cloud', password: 'p', name: 'L', storageLabel: 'admin' })).toMatchObject({
      status: 400,
      body: { message: 'Storage label already in use by another account' },
    });
  });

  it('turns an explicit null storage label into "" as Immich does', async () => {
    expect(await create({ email: 'nolabel@immich.cloud', password: 'p', name: 'N', storageLabel: null })).toMatchObject({
      status: 201,
      body: { storageLabel: '' },
    });
  });

  it('accepts an email without a top-level domain', async () => {
    expect(await create({ email: 'someone@local', password: 'p', name: 'Local' })).toMatchObject({
      status: 201,
      body: { email: 'someone@local' },
    });
  });

  it('is admin only: a user gets 403 before the body is even validated', async () => {
    const { accessToken } = await freshUser(adminToken, 'Plain');
    expect(await create({ email: 'not-an-email' }, bearer(accessToken))).toMatchObject({
      status: 403,
      body: { message: 'Forbidden resource', error: 'Forbidden', statusCode: 403 },
    });
    expect(await create({ email: 'not-an-email' }, {})).toMatchObject({ status: 401 });
  });
});

describe('GET /user/me (getMyUserInfo)', () => {
  it('requires authentication', async () => {
    expect(await invoke(getMyUserInfo, { path: '/api/user/me' })).toMatchObject({
      status: 401,
      body: { message: 'Authentication required' },
    });
  });

  it('gets my info, exactly the UserResponseDto keys', async () => {
    const { accessToken, userId } = await freshUser(adminToken, 'Myself');
    const reply = await invoke(getMyUserInfo, { path: '/api/user/me', headers: bearer(accessToken) });
    expect(reply.status).toBe(200);
    expect(v.parse(UserResponseDto, reply.body)).toMatchObject({ id: userId, email: 'myself@immich.cloud' });
  });
});
