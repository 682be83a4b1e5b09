import type * as v from 'valibot';
import { authenticate, type Auth } from '../auth/authenticate.ts';
import { createHandler, type Endpoint, type HandlerInput } from './pipeline.ts';

type Signed = Exclude<Endpoint['access'], 'public'>;

/**
 * A handler for a signed-in caller: `access: 'user'` (session or API key), `'admin'`, or `'shared'`
 * (also a shared-link key). The
 * handler receives the resolved `auth`; 401/403 are answered before the body is validated.
 */
export const httpHandler = <
  TBody extends v.GenericSchema | undefined = undefined,
  TParams extends v.GenericSchema | undefined = undefined,
  TQuery extends v.GenericSchema | undefined = undefined,
>(
  endpoint: Endpoint<TBody, TParams, TQuery> & { access: Signed },
  fn: (input: HandlerInput<Auth, TBody, TParams, TQuery>) => unknown,
) => createHandler<Auth, TBody, TParams, TQuery>(endpoint, fn, authenticate as (...args: Parameters<typeof authenticate>) => Promise<Auth>);
