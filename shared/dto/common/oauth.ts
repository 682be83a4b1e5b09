/**
 * The OAuth requests, one path for both generations (docs/immich-compatibility.md, "OAuth"):
 * v1.100's `OAuthConfigDto` (`redirectUri`) and `OAuthCallbackDto` (`url`), which v3 extends with
 * the PKCE `codeChallenge`, the `codeVerifier` and `state` its mobile app makes itself.
 */
import * as v from 'valibot';
import { as, dto, nonEmptyString, rules } from '../common.ts';

// URLs the provider and the clients build: a few hundred characters; 8 KB is any real one.
const urlLength = 8192;
const optionalText = v.optional(v.pipe(v.unknown(), rules.maxLength(urlLength), rules.isString, as<string>()));

export const OAuthConfigDto = dto({
  redirectUri: nonEmptyString(urlLength),
  state: optionalText,
  codeChallenge: optionalText,
});
export type OAuthConfigInput = v.InferOutput<typeof OAuthConfigDto>;

export const OAuthCallbackDto = dto({
  url: nonEmptyString(urlLength),
  state: optionalText,
  codeVerifier: optionalText,
});
export type OAuthCallbackInput = v.InferOutput<typeof OAuthCallbackDto>;
