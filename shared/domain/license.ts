/**
 * Product keys (Immich's licences): a key is genuine when its activation key is an RSA SHA-256
 * signature of it under Immich's public key for its kind (`IMSV-` server, `IMCL-` client). The
 * public keys are settings here (shared/core/env.ts): docs/immich-compatibility.md, "Product keys".
 */
import { createPublicKey, createVerify } from 'node:crypto';

/** Whether `activationKey` (base64) signs `licenseKey` under `publicKey` (base64 of a PEM); a malformed key or signature is no. */
export const isSignedBy = (licenseKey: string, activationKey: string, publicKey: string | undefined): boolean => {
  if (!publicKey) return false;
  try {
    const key = createPublicKey({ key: Buffer.from(publicKey, 'base64'), type: 'spki', format: 'pem' });
    return createVerify('SHA256').update(licenseKey).end().verify(key, Buffer.from(activationKey, 'base64'));
  } catch {
    return false;
  }
};
