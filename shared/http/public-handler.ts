import type * as v from 'valibot';
import { createHandler, type Endpoint, type HandlerFn } from './pipeline.ts';

/**
 * A handler that needs no caller. Kept apart from `handler.ts` so that public routes such as
 * ping do not bundle the session lookup and its DynamoDB client.
 */
export const publicHandler = <
  TBody extends v.GenericSchema | undefined = undefined,
  TParams extends v.GenericSchema | undefined = undefined,
  TQuery extends v.GenericSchema | undefined = undefined,
  TResult = unknown,
>(
  endpoint: Omit<Endpoint<TBody, TParams, TQuery, TResult>, 'access'>,
  fn: HandlerFn<undefined, TBody, TParams, TQuery, NoInfer<TResult>>,
) => createHandler<undefined, TBody, TParams, TQuery, TResult>({ ...endpoint, access: 'public' }, fn);
