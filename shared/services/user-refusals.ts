import { Conflict, type DomainError, Invalid } from '../core/errors.ts';
import type { Outcome } from '../db/outcome.ts';
import type { UserRefusal } from '../db/user.repository.ts';

/**
 * Immich's answers to a refused write of a user, of its guards, or of a credential that copies it
 * (docs/architecture.md, "Expected outcomes").
 */
const answers: Readonly<Record<UserRefusal, () => DomainError>> = {
  'user-exists': () => new Invalid('User exists'),
  'email-taken': () => new Invalid('Email already in use by another account'),
  'label-taken': () => new Invalid('Storage label already in use by another account'),
  'oauth-taken': () => new Invalid('This OAuth account has already been linked to another user.'),
  'admin-exists': () => new Invalid('The server already has an admin'),
  'no-admin': () => new Invalid('The first registered account must the administrator.'),
  'user-changed': () => new Conflict('The user was changed meanwhile; try again'),
  changed: () => new Conflict('The user was changed by another request; try again'),
};

/** The answer to a user's write refused for `reason`. */
export const userRefused = (reason: UserRefusal): DomainError => answers[reason]();

/** What a user's write produced, or its refusal answered as Immich answers it. */
export const unlessRefused = <Reason extends UserRefusal, Value>(outcome: Outcome<Reason, Value>): Value => {
  if (outcome.ok) return outcome.value;
  throw userRefused(outcome.reason);
};
