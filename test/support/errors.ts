import { expect } from 'vitest';
import { DomainError } from '#shared/core/errors.ts';

/** What `promise` rejects with, which must be a DomainError (the 4xx/5xx a handler would answer): for tests below the handlers. */
export const failure = async (promise: Promise<unknown>): Promise<DomainError> => {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
};
