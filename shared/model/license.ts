import * as v from 'valibot';
import { instant } from './fields.ts';

/** An activated product key (Immich's `UserLicense`): the key, its activation key and when it was activated. */
export const LicenseSchema = v.object({ licenseKey: v.string(), activationKey: v.string(), activatedAt: instant() });
export type License = v.InferOutput<typeof LicenseSchema>;

/** Immich's form of a product key (`IMSV-` a server's, `IMCL-` a client's). */
export const licenseKeyPattern = /^IM(SV|CL)(-[\dA-Za-z]{4}){8}$/;
