/** Immich v3.2's product keys (`@immich/sdk` 3.2.2: LicenseKeyDto, LicenseResponseDto). */
import * as v from 'valibot';
import { licenseKeyPattern } from '../../model/license.ts';
import { limits } from '../../model/limits.ts';
import { object, text } from './common.ts';

export const LicenseKeyDto = object({
  licenseKey: v.pipe(v.string('$property must be a string'), v.regex(licenseKeyPattern, '$property must be a product key')),
  activationKey: text(limits.activationKey),
});

export interface LicenseResponseDto {
  licenseKey: string;
  activationKey: string;
  activatedAt: string;
}
