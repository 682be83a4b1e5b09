import { argon2, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Secrets. Session tokens and API keys are random and stored only as SHA-256 hashes; passwords
 * are stored only as argon2id hashes in PHC string form, so the parameters travel with each hash
 * and can be raised later without breaking existing ones.
 */

/** Immich's token shape: 32 random bytes, base64 with every non-word character removed. */
export const newSecret = (): string => randomBytes(32).toString('base64').replace(/\W/g, '');

/** The stored form of a session token or API key: SHA-256, base64url. */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('base64url');

// OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane.
const params = { memory: 19_456, passes: 2, parallelism: 1, tagLength: 32 };

const b64 = (buffer: Buffer): string => buffer.toString('base64').replace(/=+$/, '');

const derive = (password: string, salt: Buffer, p: typeof params): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    argon2('argon2id', { message: password, nonce: salt, ...p }, (error, key) => (error ? reject(error) : resolve(key))),
  );

export const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return `$argon2id$v=19$m=${params.memory},t=${params.passes},p=${params.parallelism}$${b64(salt)}$${b64(key)}`;
};

const phc = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** Constant-time check of a password against a stored PHC string; false for anything malformed. */
export const verifyPassword = async (password: string, stored: string | null | undefined): Promise<boolean> => {
  const match = phc.exec(stored ?? '');
  if (!match) return false;
  const [, memory, passes, parallelism, salt, hash] = match;
  const expected = Buffer.from(hash ?? '', 'base64');
  const actual = await derive(password, Buffer.from(salt ?? '', 'base64'), {
    memory: Number(memory),
    passes: Number(passes),
    parallelism: Number(parallelism),
    tagLength: expected.length,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
};

// A real hash of a random password, made once: checking an unknown email against it costs the
// same time as a wrong password, so login timing does not tell which emails exist.
let decoy: Promise<string> | undefined;
export const decoyHash = (): Promise<string> => (decoy ??= hashPassword(newSecret()));

/**
 * Shared-link keys. Immich shows a link's key to its creator on every read, so the key cannot be
 * a random value stored only as a hash; storing it in clear would put a credential in the table.
 * Instead the key is derived: HMAC-SHA512 of the link id under a deployment secret
 * (shared/storage/link-secret.ts), cut to Immich's 50 bytes and sent base64url (67 characters). The table
 * holds only its SHA-256 (what a visitor's request is looked up by) and can recompute nothing.
 */
export const sharedLinkKey = (secret: string, linkId: string): string => {
  return createHmac('sha512', secret).update(linkId).digest().subarray(0, 50).toString('base64url');
};

/** Immich reads a 100-character key as hex, anything else as base64url. */
export const sharedLinkKeyBytes = (key: string): Buffer => (key.length === 100 ? Buffer.from(key, 'hex') : Buffer.from(key, 'base64url'));

/** The stored form of a shared-link key: SHA-256 (base64url) of its bytes. */
export const hashSharedLinkKey = (key: string): string => createHash('sha256').update(sharedLinkKeyBytes(key)).digest('base64url');

/**
 * What a link's answers give as its `password`, where Immich gives the password itself (only its
 * hash is stored here): an HMAC of the link and the hash, which names nothing and changes with
 * the password. An edit that sends it back keeps the password (docs/immich-compatibility.md, "Shared links").
 */
export const sharedLinkPasswordStandIn = (secret: string, linkId: string, passwordHash: string): string =>
  createHmac('sha256', secret).update(`shared-link-password\0${linkId}\0${passwordHash}`).digest('base64url').slice(0, 24);

/** How long the token a link's password earns is good for: the life of Immich's cookie that carries it. */
const sharedLinkTokenSeconds = 86_400;

const tokenMac = (secret: string, linkId: string, passwordHash: string, expires: number): string =>
  createHmac('sha256', secret).update(`shared-link-token\0${linkId}\0${expires}\0${passwordHash}`).digest('base64url');

/**
 * The token a correct password earns (Immich's `?token=` and `immich_shared_link_token` cookie):
 * `<expiry>.<HMAC>` under the deployment secret, over the link, the expiry and the current
 * password hash. Immich's token was SHA-256 of `<linkId>-<password>`, which anyone knowing the id
 * could compute for each guess, skipping the password check's cost; this one cannot be made
 * without the secret, ends with the cookie, and dies when the password changes.
 */
export const sharedLinkToken = (secret: string, linkId: string, passwordHash: string, now = Date.now()): string => {
  const expires = Math.floor(now / 1000) + sharedLinkTokenSeconds;
  return `${expires}.${tokenMac(secret, linkId, passwordHash, expires)}`;
};

/** Whether a token was made by `sharedLinkToken` for this link and password, and is still live. */
export const isSharedLinkToken = (secret: string, token: string, linkId: string, passwordHash: string, now = Date.now()): boolean => {
  const match = /^(\d{1,12})\.([\w-]{43})$/.exec(token);
  if (!match) return false;
  const expires = Number(match[1]);
  if (expires <= Math.floor(now / 1000)) return false;
  const expected = Buffer.from(tokenMac(secret, linkId, passwordHash, expires));
  const given = Buffer.from(match[2] ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
};

/**
 * The signature of a local part URL (upload sessions without S3, docs/large-uploads.md): HMAC
 * under the deployment secret over the session, the part, its SHA-1 and the URL's expiry, so
 * the URL admits exactly that part's bytes until then, as S3's presigned UploadPart does.
 */
export const uploadPartSignature = (secret: string, sessionId: string, partNumber: number, sha1: string, expires: number): string =>
  createHmac('sha256', secret).update(`upload-part\0${sessionId}\0${partNumber}\0${sha1}\0${expires}`).digest('base64url');

export const isUploadPartSignature = (
  secret: string,
  signature: string,
  part: { sessionId: string; partNumber: number; sha1: string; expires: number },
): boolean => {
  const expected = Buffer.from(uploadPartSignature(secret, part.sessionId, part.partNumber, part.sha1, part.expires));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
};

/**
 * An id derived from what it names (SHA-256 of `seed`), in a version-4 UUID's form: whoever makes
 * the same thing again makes the same id, so a conditional put makes it once (a nightly memory of
 * one day and year, an album's update told to one user in one slot of time).
 */
export const derivedUuid = (seed: string): string => {
  const hex = createHash('sha256').update(seed).digest('hex');
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};
