import type * as v from 'valibot';
import { authenticate } from '../auth/authenticate.ts';
import { unlockLink } from '../auth/link-unlock.ts';
import type { Auth } from '../model/user.ts';
import { readCredentials } from './credentials.ts';
import { createHandler, type Endpoint, type HandlerFn } from './pipeline.ts';

/**
 * A handler for a route a shared-link visitor may call as well as a signed-in user: `access:
 * 'shared'`, or `'link-password'` (the link's own route, where a visitor proves its password). A
 * visitor of a password link must present a live token for its current password (the link secret
 * checks it); only these routes carry that secret's client.
 */
export const sharedHandler = <
  TBody extends v.GenericSchema | undefined = undefined,
  TParams extends v.GenericSchema | undefined = undefined,
  TQuery extends v.GenericSchema | undefined = undefined,
  TResult = unknown,
>(
  endpoint: Endpoint<TBody, TParams, TQuery, TResult> & { access: 'shared' | 'link-password' },
  fn: HandlerFn<Auth, TBody, TParams, TQuery, NoInfer<TResult>>,
) =>
  createHandler<Auth, TBody, TParams, TQuery, TResult>(endpoint, fn, (event, rule) =>
    authenticate(readCredentials(event), rule, unlockLink),
  );
