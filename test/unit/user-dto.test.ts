import { describe, expect, it } from 'vitest';
import { CreateUserDto, UpdateUserDto } from '#shared/dto/v1/user.ts';
import { parseOrThrow } from '#shared/dto/validate.ts';
import { errorBody } from '#shared/http/errors.ts';

/**
 * v1.100's POST /user and PUT /user bodies, checked as Immich's class-validator checks them, the
 * schemas alone: the 400 each bad body answers. The handler tests (test/functions/user.test.ts)
 * prove the routes check their bodies with them, and after who may call them.
 */

const answer = (schema: Parameters<typeof parseOrThrow>[0], body: unknown) => {
  try {
    parseOrThrow(schema, body);
  } catch (error) {
    return errorBody(error);
  }
  return undefined;
};
const badRequest = (message: string[]) => ({ message, error: 'Bad Request', statusCode: 400 });

const user1 = { email: 'user1@immich.cloud', password: 'password1', name: 'User 1' };
const id = '00000000-0000-4000-a000-000000000001';

describe('POST /user (CreateUserDto)', () => {
  it.each([
    ['null email', { ...user1, email: null }, ['email must be an email']],
    ['null name', { ...user1, name: null }, ['name must be a string', 'name should not be empty']],
    ['null password', { ...user1, password: null }, ['password must be a string', 'password should not be empty']],
    ['a zero quota', { ...user1, quotaSizeInBytes: 0 }, ['quotaSizeInBytes must be a positive number']],
    [
      'a text quota',
      { ...user1, quotaSizeInBytes: 'lots' },
      ['quotaSizeInBytes must be a positive number', 'quotaSizeInBytes must be a number conforming to the specified constraints'],
    ],
    ['a non-boolean memoriesEnabled', { ...user1, memoriesEnabled: 'yes' }, ['memoriesEnabled must be a boolean value']],
  ])('does not allow %s', (_what, body, message) => {
    expect(answer(CreateUserDto, body)).toEqual(badRequest(message));
  });

  it('takes a whole body', () => {
    expect(answer(CreateUserDto, { ...user1, quotaSizeInBytes: 1024, memoriesEnabled: 'false' })).toBeUndefined();
  });
});

describe('PUT /user (UpdateUserDto)', () => {
  it.each([
    [{ name: null }, ['name should not be empty', 'name must be a string']],
    [{ email: null }, ['email must be an email']],
    [{ password: null }, ['password must be a string', 'password should not be empty']],
    [{ isAdmin: null }, ['isAdmin must be a boolean value']],
    [{ memoriesEnabled: 'x' }, ['memoriesEnabled must be a boolean value']],
    [{ quotaSizeInBytes: 0 }, ['quotaSizeInBytes must be a positive number']],
    [
      { avatarColor: 'teal' },
      ['avatarColor must be one of the following values: primary, pink, red, yellow, blue, green, purple, orange, gray, amber'],
    ],
  ])('%j → 400 %j', (body, message) => {
    expect(answer(UpdateUserDto, { id, ...body })).toEqual(badRequest(message));
  });

  it('needs an id', () => {
    expect(answer(UpdateUserDto, {})).toEqual(badRequest(['id must be a UUID', 'id should not be empty']));
  });

  it('takes an id alone, and null for the quota (no quota)', () => {
    expect(answer(UpdateUserDto, { id })).toBeUndefined();
    expect(answer(UpdateUserDto, { id, quotaSizeInBytes: null })).toBeUndefined();
  });
});
