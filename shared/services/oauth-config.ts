import { log } from '../core/log.ts';
import type { SystemConfig } from '../domain/system-config.ts';
import { type DeployedOAuth, deployedOAuth } from '../storage/oauth-settings.ts';
import { getConfigState, readConfigState } from './config.reader.ts';

/**
 * The configuration as the routes that show or use OAuth read it: the deployment's provider
 * (`OAUTH_SECRET_ARN`, shared/storage/oauth-settings.ts) over the stored settings. Only those
 * routes import this (their row's `oauthSecret`, infra/routes.ts), so no other function carries
 * the Secrets Manager client.
 */

/**
 * The settings the deployment's OAuth secret overrides: never stored, always the secret's. The
 * issuer, client id and secret always; the mobile redirect override when the secret carries it
 * (`-c oauth=cognito` does).
 */
export const deployedOAuthKeys = (deployed: DeployedOAuth): string[] => Object.keys(deployed).map((key) => `oauth.${key}`);

/**
 * The deployment's issuer, client id and secret (and the mobile redirect override when the secret
 * has it) replace the stored ones, and OAuth is on unless an
 * admin turned it off (a stored `oauth.enabled`). Without `OAUTH_SECRET_ARN`, the config as it is;
 * a secret that cannot be read leaves OAuth off until the next read, and the rest served. The
 * config given is not changed (it may be the cached one).
 */
export const withDeployedOAuth = async (config: SystemConfig, overrides: Record<string, unknown>): Promise<SystemConfig> => {
  let deployed: Awaited<ReturnType<typeof deployedOAuth>>;
  try {
    deployed = await deployedOAuth();
  } catch (error) {
    log.error('The OAuth secret could not be read', { reason: error instanceof Error ? error.message : String(error) });
    return { ...config, oauth: { ...config.oauth, enabled: false } };
  }
  if (!deployed) return config;
  const enabled = 'oauth.enabled' in overrides ? config.oauth.enabled : true;
  return { ...config, oauth: { ...config.oauth, ...deployed, enabled } };
};

/** `readConfig` (cached) with the deployment's provider. */
export const readOAuthConfig = async (): Promise<SystemConfig> => {
  const { config, overrides } = await readConfigState();
  return withDeployedOAuth(config, overrides);
};

/** `getConfig` (the stored state, for the admin's settings) with the deployment's provider. */
export const getOAuthConfig = async (): Promise<SystemConfig> => {
  const { config, overrides } = await getConfigState();
  return withDeployedOAuth(config, overrides);
};
