import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import * as v from 'valibot';
import * as env from '../core/env.ts';

/** What the deployment's OAuth secret holds (docs/deployment.md): the provider the stack made or was given. */
const DeployedOAuthSchema = v.object({
  issuerUrl: v.pipe(v.string(), v.minLength(1)),
  clientId: v.pipe(v.string(), v.minLength(1)),
  clientSecret: v.string(),
  // The mobile redirect override (`-c oauth=cognito` writes both: Cognito refuses the app's own
  // scheme, docs/deployment.md, "Sign in with Cognito"); a secret without them leaves the stored ones.
  mobileOverrideEnabled: v.optional(v.boolean()),
  mobileRedirectUri: v.optional(v.string()),
});
export type DeployedOAuth = v.InferOutput<typeof DeployedOAuthSchema>;

let fetched: { arn: string; settings: Promise<DeployedOAuth> } | undefined;

const fetchSettings = async (arn: string): Promise<DeployedOAuth> => {
  const { SecretString } = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
  let parsed: unknown;
  try {
    parsed = JSON.parse(SecretString ?? '');
  } catch {
    // Never the value itself in the message: it holds the client secret.
    throw new Error('The OAuth secret is not JSON');
  }
  const result = v.safeParse(DeployedOAuthSchema, parsed);
  if (!result.success)
    throw new Error(
      'The OAuth secret lacks issuerUrl, clientId or clientSecret, or its mobileOverrideEnabled is not a boolean or mobileRedirectUri not a string',
    );
  return result.output;
};

/**
 * The OAuth provider the deployment names (`OAUTH_SECRET_ARN`: a Secrets Manager secret of JSON
 * `{issuerUrl, clientId, clientSecret, mobileOverrideEnabled?, mobileRedirectUri?}`), read once per container (per ARN) as the shared-link secret is
 * (shared/storage/link-secret.ts), or undefined when none is set (`npm start`, tests: the settings
 * alone). A failed read is not cached: the next request tries again.
 */
export const deployedOAuth = (): Promise<DeployedOAuth | undefined> => {
  const arn = env.oauthSecretArn();
  if (!arn) return Promise.resolve(undefined);
  if (fetched?.arn !== arn) {
    const settings = fetchSettings(arn).catch((error: unknown) => {
      if (fetched?.settings === settings) fetched = undefined;
      throw error;
    });
    fetched = { arn, settings };
  }
  return fetched.settings;
};
