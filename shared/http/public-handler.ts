import type * as v from 'valibot';
import { createHandler, type Endpoint, type HandlerInput } from './pipeline.ts';

/**
 * A handler that needs no caller. Kept apart from `handler.ts` so that public routes such as
 * ping do not bundle the session lookup and its DynamoDB client.
 */
export const publicHandler = <
  TBody extends v.GenericSchema | undefined = undefined,
  TParams extends v.GenericSchema | undefined = undefined,
  TQuery extends v.GenericSchema | undefined = undefined,
>(
  endpoint: Omit<Endpoint<TBody, TParams, TQuery>, 'access'>,
  fn: (input: HandlerInput<undefined, TBody, TParams, TQuery>) => unknown,
) => createHandler<undefined, TBody, TParams, TQuery>({ ...endpoint, access: 'public' }, fn);
