/**
 * The user's fields both generations read alike: the email rule (Immich's, lower-cased first); the
 * avatar colours are in avatar.ts, which answers need without the request rules. docs/immich-compatibility.md, "Two generations".
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
