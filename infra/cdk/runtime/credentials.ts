/**
 * Stand-in for `@aws-sdk/credential-provider-node` inside Lambda bundles (esbuild alias, see
 * infra/cdk/bundling.ts). Lambda always hands a function its role's credentials in environment
 * variables, so the SDK's default chain (profiles, SSO, STS web identity, IMDS, ...) is dead
 * weight there: dropping it takes ~80 KB and several ms off every cold start. Local runs and
 * tests set the same variables. A bundle that imports any other name from the chain fails to build.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

export const defaultProvider = (init: Parameters<typeof fromEnv>[0] = {}) => fromEnv(init);
