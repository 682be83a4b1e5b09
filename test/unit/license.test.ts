import { createSign, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isSignedBy } from '#shared/domain/license.ts';

/**
 * Product keys (docs/immich-compatibility.md, "Product keys"), the rule alone: a key is genuine
 * when its activation key signs it under the public key given. The handler tests
 * (test/functions/v3-licenses.test.ts) prove the routes ask it with the settings' keys.
 */

const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicKeyOf = (keys: ReturnType<typeof pair>) =>
  Buffer.from(keys.publicKey.export({ type: 'spki', format: 'pem' })).toString('base64');
const sign = (keys: ReturnType<typeof pair>, licenseKey: string) => createSign('SHA256').update(licenseKey).sign(keys.privateKey, 'base64');

describe('isSignedBy', () => {
  const ours = pair();
  const theirs = pair();
  const licenseKey = 'IMSV-AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GGGG-HHHH';

  it('takes a key signed under the public key given', () => {
    expect(isSignedBy(licenseKey, sign(ours, licenseKey), publicKeyOf(ours))).toBe(true);
  });

  it('refuses another key’s signature, another signer, no public key, and anything malformed', () => {
    expect(isSignedBy(`${licenseKey}X`, sign(ours, licenseKey), publicKeyOf(ours))).toBe(false);
    expect(isSignedBy(licenseKey, sign(theirs, licenseKey), publicKeyOf(ours))).toBe(false);
    expect(isSignedBy(licenseKey, sign(ours, licenseKey), undefined)).toBe(false);
    expect(isSignedBy(licenseKey, sign(ours, licenseKey), '')).toBe(false);
    expect(isSignedBy(licenseKey, 'not base64 at all!', publicKeyOf(ours))).toBe(false);
    expect(isSignedBy(licenseKey, sign(ours, licenseKey), Buffer.from('not a key').toString('base64'))).toBe(false);
  });
});
