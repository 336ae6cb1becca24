import type { ResolutionChange } from '../breaches/BreachStore.ts';

export type ResolutionChangeProblem = 'unknown-breach' | 'unknown-data-class' | 'invalid-email';

/**
 * A change the store refuses. The service validates requests first, so this guards the
 * store's own invariants (a resolution always names a catalog breach and one of its data
 * classes); it is thrown inside the transaction, so no change of the list is applied.
 */
export class ResolutionChangeError extends Error {
  readonly index: number;
  readonly change: ResolutionChange;
  readonly problem: ResolutionChangeProblem;

  constructor(index: number, change: ResolutionChange, problem: ResolutionChangeProblem, message: string) {
    super(`resolution change ${index}: ${message}; nothing was applied`);
    this.name = 'ResolutionChangeError';
    this.index = index;
    this.change = change;
    this.problem = problem;
  }
}

/** A breach the store will not hold (it would break the contract's rules on output). */
export class InvalidBreachError extends Error {
  readonly breachId: unknown;

  constructor(breachId: unknown, message: string) {
    super(`breach ${JSON.stringify(breachId)}: ${message}`);
    this.name = 'InvalidBreachError';
    this.breachId = breachId;
  }
}

/**
 * The database cannot be reached now (PostgreSQL went away, or every connection is busy for too
 * long). The service answers 503 with `Retry-After`; nothing of the request was applied unless
 * the database had already committed it, which the client's retry finds idempotent.
 */
export class StoreUnavailableError extends Error {
  readonly database: string;

  constructor(database: string, cause?: Error) {
    super(`the database at ${database} is unavailable${cause ? `: ${cause.message}` : ''}`, cause ? { cause } : undefined);
    this.name = 'StoreUnavailableError';
    this.database = database;
  }
}
