import { createHash } from 'node:crypto';
import { CfnOutput, Duration, RemovalPolicy, SecretValue, Stack, Token, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  FeaturePlan,
  ManagedLoginVersion,
  Mfa,
  OAuthScope,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
  type UserPoolDomain,
} from 'aws-cdk-lib/aws-cognito';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { Route } from '../routes.ts';
import { acknowledgeSdkCallHandler } from './sdk-call-handler.ts';

/**
 * The deployed OAuth provider the stack can make (`-c oauth=cognito`). Any other provider needs no
 * stack change: its issuer, client id and secret go into the admin page's OAuth settings.
 */
export const oauthMode = (scope: Construct): 'cognito' | undefined => {
  const value = scope.node.tryGetContext('oauth') as string | undefined;
  if (value === undefined || value === '' || value === 'off') return undefined;
  if (value === 'cognito') return 'cognito';
  throw new Error(`Unknown -c oauth=${value}: use cognito (or leave it out and set any provider in the admin page)`);
};

/**
 * Whether a route's function is given the deploy-time OAuth settings (`OAUTH_SECRET_ARN`, readable
 * by its role): its row's `oauthSecret` (infra/routes.ts), which test/unit/architecture.test.ts
 * holds to exactly the handlers that import the secret's reader.
 */
export const readsOAuthSettings = (route: Pick<Route, 'oauthSecret'>): boolean => route.oauthSecret === true;

/**
 * The Cognito domain's prefix: globally unique per Region, so the stack's name (lowercase, without
 * the words Cognito refuses in a prefix) and a hash of the account, Region and stack name; with
 * neither account nor Region known at synth, of the stack's name and path only.
 * `-c oauthDomainPrefix=…` chooses one.
 */
export const cognitoDomainPrefix = (stack: Stack): string => {
  const chosen = stack.node.tryGetContext('oauthDomainPrefix') as string | undefined;
  if (chosen) return chosen;
  const known = (value: string): string => (Token.isUnresolved(value) ? '' : value);
  const hash = createHash('sha256')
    .update([known(stack.account), known(stack.region), stack.stackName, stack.node.path].join('/'))
    .digest('hex')
    .slice(0, 10);
  const name = stack.stackName
    .toLowerCase()
    .replace(/aws|amazon|cognito/g, '-')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50);
  return name ? `${name}-${hash}` : `immich-${hash}`;
};

export interface CognitoProviderProps {
  /**
   * The web app's origin (`https://<distribution or custom domain>`), whose pages and the mobile
   * redirect are the app client's callback URLs. Lazy: the distribution is made after the functions.
   */
  webUrl: string;
}

/**
 * A Cognito user pool for a family (docs/deployment.md, "Sign in with Cognito"): no self sign-up
 * (the admin adds each account), Cognito's hosted sign-in page, one confidential app client (code
 * grant; the server sends PKCE, which Cognito checks), and a Secrets Manager secret with the
 * issuer, client id and client secret, and the mobile redirect override, that the OAuth functions
 * read at their cold start (`OAUTH_SECRET_ARN`).
 */
export class CognitoProvider extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;
  readonly domain: UserPoolDomain;
  readonly secret: Secret;
  /** The pages Cognito may send a signed-in browser back to, and the mobile app's redirect. */
  readonly callbackUrls: string[];
  readonly mobileRedirectUri: string;

  constructor(scope: Construct, id: string, props: CognitoProviderProps) {
    super(scope, id);
    const mfaRequired = String(this.node.tryGetContext('oauthMfa') ?? 'optional') === 'required';
    this.userPool = new UserPool(this, 'UserPool', {
      userPoolName: `${Stack.of(this).stackName}-family`,
      // Lite: the hosted sign-in page, passwords and TOTP are all a family needs, with the same free
      // tier as Essentials (10,000 monthly active users) and a lower price beyond it; CDK's default
      // for a new pool would be Essentials (docs/cost.md).
      featurePlan: FeaturePlan.LITE,
      // The admin adds the family (docs/deployment.md): no one else can make an account.
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      standardAttributes: { email: { required: true, mutable: true }, fullname: { required: false, mutable: true } },
      autoVerify: { email: true },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(7),
      },
      // TOTP (an authenticator app) costs nothing; SMS would need a role and pays per message.
      mfa: mfaRequired ? Mfa.REQUIRED : Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      // RETAIN: the family's accounts (and their authenticators) are what Immich users are linked to
      // (their `sub` is each user's oauthId); a stack deletion must not take them.
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
    });
    if (!mfaRequired) {
      Validations.of(this.userPool).acknowledge({
        id: 'AwsSolutions-COG2',
        reason:
          'MFA is offered (TOTP, free) but not forced on a family’s accounts by default; `-c oauthMfa=required` requires it (docs/deployment.md)',
      });
    }
    Validations.of(this.userPool).acknowledge({
      id: 'AwsSolutions-COG8',
      reason:
        'The Plus plan (threat protection) has no free tier and costs $0.02 per monthly active user; a family’s pool with no self sign-up stays on Lite, free up to 10,000 users',
    });

    this.domain = this.userPool.addDomain('Domain', {
      cognitoDomain: { domainPrefix: cognitoDomainPrefix(Stack.of(this)) },
      // The classic hosted UI: Lite's sign-in page, which needs no branding resource.
      managedLoginVersion: ManagedLoginVersion.CLASSIC_HOSTED_UI,
    });

    // The web app's login page and its account settings (where a user links their account), and
    // the server's mobile redirect: with the override on (`mobileOverrideEnabled`), Immich's mobile
    // app's sign-in goes back to that https URL, which Cognito accepts, and the server sends the
    // app on to `app.immich:///oauth-callback` (docs/deployment.md, "Sign in with Cognito").
    this.mobileRedirectUri = `${props.webUrl}/api/oauth/mobile-redirect`;
    this.callbackUrls = [`${props.webUrl}/auth/login`, `${props.webUrl}/user-settings`, this.mobileRedirectUri];
    this.client = this.userPool.addClient('ImmichClient', {
      userPoolClientName: 'immich',
      generateSecret: true,
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
        callbackUrls: this.callbackUrls,
      },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
    });

    // The client secret reaches the secret without ever being in the template: CDK's
    // `userPoolClientSecret` is a custom resource (DescribeUserPoolClient, its answer hidden from its
    // log) whose attribute CloudFormation passes to the secret at deploy time.
    // With them, the mobile redirect override the app's sign-in needs (Cognito refuses the app's
    // `app.immich:///` form): on, to the server's https hop. JSON as CDK's `secretObjectValue` writes
    // it (each token a string), but with a boolean, which that only takes as strings.
    this.secret = new Secret(this, 'Settings', {
      description:
        'Immich OAuth settings for the Cognito user pool: issuerUrl, clientId, clientSecret, the mobile redirect override (read by the OAuth functions)',
      secretStringValue: SecretValue.unsafePlainText(
        JSON.stringify({
          issuerUrl: this.userPool.userPoolProviderUrl,
          clientId: this.client.userPoolClientId,
          clientSecret: this.client.userPoolClientSecret.unsafeUnwrap(),
          mobileOverrideEnabled: true,
          mobileRedirectUri: this.mobileRedirectUri,
        }),
      ),
      // Made from the pool's client at each deploy: nothing in it is lost with the stack.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'It holds the Cognito app client’s secret, which Cognito itself issues: replacing the client (a new deploy of it) writes the new one here',
    });
    acknowledgeSdkCallHandler(this, 'the Cognito client’s secret');

    const stack = Stack.of(this);
    new CfnOutput(stack, 'OAuthSignInUrl', {
      value: this.domain.baseUrl(),
      description: 'Cognito’s hosted sign-in page (the web app’s “Login with OAuth” goes there)',
    });
    // The mobile app's redirect, which the secret turns on as the override (docs/deployment.md,
    // "Sign in with Cognito"): shown for the admin page's sake and the provider's callback list.
    new CfnOutput(stack, 'OAuthMobileRedirectUri', {
      value: this.mobileRedirectUri,
      description: 'The mobile redirect URI override the settings secret turns on (Administration → Settings → OAuth shows it)',
    });
    new CfnOutput(stack, 'OAuthUserPoolId', {
      value: this.userPool.userPoolId,
      description: 'Add the family’s accounts here: aws cognito-idp admin-create-user --user-pool-id <this> (docs/deployment.md)',
    });
  }
}
