import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v3 from '@immich/sdk-v3';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '#shared/core/crypto.ts';
import { db } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { adminWithApiKey } from '../support/sdk.ts';
import { useServer } from '../support/server.ts';

/**
 * What using a session keeps of it, through the server (the local one, or the synthesized stack in
 * the deployed project, whose read-only functions may update session items only as their role
 * allows): the locked folder's unlock kept while in use.
 */
describe('a session in use (v3)', () => {
  const server = useServer();
  const email = 'sessions@immich.cloud';
  let token: string;

  beforeAll(async () => {
    await adminWithApiKey(server.baseUrl, email);
    token = (await v3.login({ loginCredentialDto: { email, password: 'password' } }, { baseUrl: server.baseUrl })).accessToken;
  });

  it('keeps the locked folder unlocked five minutes past a request made near its end, from a read-only function too', async () => {
    const me = { baseUrl: server.baseUrl, headers: { authorization: `Bearer ${token}` } };
    await v3.setupPinCode({ pinCodeSetupDto: { pinCode: '123456' } }, me);
    await v3.unlockAuthSession({ sessionUnlockDto: { pinCode: '123456' } }, me);
    // As if the unlock were 14 minutes old: one minute left.
    await db.send(
      new UpdateCommand({
        TableName: process.env.TABLE_NAME,
        Key: keys.session(hashSecret(token)),
        UpdateExpression: 'SET pinExpiresAt = :soon',
        ExpressionAttributeValues: { ':soon': new Date(Date.now() + 60_000).toISOString() },
      }),
    );
    const status = await v3.getAuthStatus(me);
    expect(status.isElevated).toBe(true);
    expect(Date.parse(status.pinExpiresAt ?? '') - Date.now()).toBeGreaterThan(4.9 * 60_000);
  });
});
