import type * as v from 'valibot';
import { type Access, authenticate } from '../auth/authenticate.ts';
import type { Auth } from '../model/user.ts';
import { readCredentials } from './credentials.ts';
import { createHandler, type Endpoint, type HandlerFn } from './pipeline.ts';

/**
 * A handler for a signed-in caller: `access: 'user'` (session or API key) or `'admin'`. The
 * handler receives the resolved `auth`; 401/403 are answered before the body is validated. The
 * routes a shared-link visitor may call use `sharedHandler` (shared/http/shared-handler.ts).
 */
export const httpHandler = <
  TBody extends v.GenericSchema | undefined = undefined,
  TParams extends v.GenericSchema | undefined = undefined,
  TQuery extends v.GenericSchema | undefined = undefined,
  TResult = unknown,
>(
  endpoint: Endpoint<TBody, TParams, TQuery, TResult> & { access: Exclude<Access, 'public' | 'shared' | 'link-password'> },
  fn: HandlerFn<Auth, TBody, TParams, TQuery, NoInfer<TResult>>,
) => createHandler<Auth, TBody, TParams, TQuery, TResult>(endpoint, fn, (event, rule) => authenticate(readCredentials(event), rule));
