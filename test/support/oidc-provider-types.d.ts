/**
 * The part of `oidc-provider` (9.x, untyped) that test/support/oidc-provider.ts uses. Its
 * DefinitelyTyped package would bring Koa's types in for these few names.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  interface Context {
    oidc: {
      provider: Provider;
      session?: { accountId?: string };
    };
  }

  export interface Configuration {
    clients?: Record<string, unknown>[];
    jwks?: { keys: unknown[] };
    cookies?: { keys: string[] };
    claims?: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    features?: Record<string, { enabled: boolean }>;
    findAccount?: (
      ctx: Context,
      sub: string,
    ) => { accountId: string; claims: () => Record<string, unknown> } | undefined | Promise<unknown>;
    loadExistingGrant?: (ctx: Context) => Promise<Grant | undefined>;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    Grant: new (properties: {
      clientId: string;
      accountId: string;
    }) => Grant;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    /** Koa middleware, run before the provider's own (its answer is read after `next`). */
    use(middleware: (ctx: MiddlewareContext, next: () => Promise<void>) => Promise<void>): this;
  }

  /** The part of Koa's context a middleware reads and sets. */
  interface MiddlewareContext {
    path: string;
    status: number;
    body: unknown;
  }
}
