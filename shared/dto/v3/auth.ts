/**
 * Immich v3.2's PIN code and session requests (`@immich/sdk` 3.2.2: PinCodeSetupDto,
 * PinCodeChangeDto, PinCodeResetDto, SessionUnlockDto).
 */
import * as v from 'valibot';
import { limits } from '../../model/limits.ts';
import { object, pinCode, text } from './common.ts';

export const PinCodeSetupDto = object({ pinCode });

/** The PIN code, or the password (Immich's `PinCodeResetDto`; also the unlock's). */
export const PinCodeResetDto = object({ pinCode: v.optional(pinCode), password: v.optional(text(limits.password)) });

export const SessionUnlockDto = PinCodeResetDto;

export const PinCodeChangeDto = object({ ...PinCodeResetDto.entries, newPinCode: pinCode });
