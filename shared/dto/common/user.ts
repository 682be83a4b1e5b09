/**
 * The user's fields both generations read and answer alike: the email rule (Immich's, lower-cased
 * first) and the avatar colours. docs/immich-compatibility.md, "Two generations".
 */
import * as v from 'valibot';
import { as, rules } from '../common.ts';

// validator.js isEmail with require_tld:false, as Immich uses it: `admin@local` is an email.
const emailPattern =
  /^(?!\.)(?!.*\.\.)[\w!#$%&'*+/=?^`{|}~.-]+(?<!\.)@(?=.{1,253}$)[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?(?:\.[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?)*$/i;

const toLowerCase = v.transform((x: unknown) => (typeof x === 'string' ? x.toLowerCase() : x));
const isEmail = v.check((x: unknown) => typeof x === 'string' && x.length <= 254 && emailPattern.test(x), '$property must be an email');

/** `@IsEmail({require_tld:false}) @Transform(toEmail)`: lower-cased before it is checked. */
export const email = () => v.pipe(v.unknown(), toLowerCase, isEmail, as<string>());

/** The same plus `@IsNotEmpty()`, as on login and admin sign-up. */
export const requiredEmail = () => v.pipe(v.unknown(), toLowerCase, rules.isNotEmpty, isEmail, as<string>());

export const avatarColors = ['primary', 'pink', 'red', 'yellow', 'blue', 'green', 'purple', 'orange', 'gray', 'amber'] as const;
export type AvatarColor = (typeof avatarColors)[number];

/** Immich derives the colour from the email: the sum of its code points, modulo 10. */
export const avatarColorFor = (email: string): AvatarColor => {
  let sum = 0;
  for (const character of email) sum += character.codePointAt(0) ?? 0;
  return avatarColors[sum % avatarColors.length] ?? 'primary';
};
