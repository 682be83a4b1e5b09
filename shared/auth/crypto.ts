import { argon2, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

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
