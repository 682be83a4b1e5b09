import { describe, expect, it } from 'vitest';
import {
  hashPassword,
  hashSecret,
  hashSharedLinkKey,
  newSecret,
  sharedLinkKey,
  sharedLinkKeyBytes,
  verifyPassword,
} from '#shared/core/crypto.ts';

describe('secrets', () => {
  it('makes tokens as Immich does (base64 of 32 random bytes, word characters only), never the same twice', () => {
    const [a, b] = [newSecret(), newSecret()];
    expect(a).toMatch(/^\w{30,44}$/);
    expect(a).not.toBe(b);
    expect(hashSecret(a)).toBe(hashSecret(a));
    expect(hashSecret(a)).not.toContain(a);
  });

  it('hashes passwords with argon2id in PHC form, and verifies only the right one', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('wrong horse', stored)).toBe(false);
    expect(await verifyPassword('correct horse', 'not a hash')).toBe(false);
    expect(await verifyPassword('correct horse', null)).toBe(false);
  });

  it("derives a link's key from its id and the deployment secret; stores only its hash, as hex or base64url", () => {
    const key = sharedLinkKey('secret', '5f8e7c1e-4f7a-4a2b-9f1d-2a1b3c4d5e6f');
    expect(key).toBe(sharedLinkKey('secret', '5f8e7c1e-4f7a-4a2b-9f1d-2a1b3c4d5e6f'));
    expect(key).not.toBe(sharedLinkKey('secret', '6f8e7c1e-4f7a-4a2b-9f1d-2a1b3c4d5e6f'));
    expect(key).not.toBe(sharedLinkKey('another deployment', '5f8e7c1e-4f7a-4a2b-9f1d-2a1b3c4d5e6f'));
    expect(sharedLinkKeyBytes(key)).toHaveLength(50);
    const hex = sharedLinkKeyBytes(key).toString('hex');
    expect(hashSharedLinkKey(hex)).toBe(hashSharedLinkKey(key));
  });
});
