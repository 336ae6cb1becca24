// What the breach store refuses, thrown inside its transactions (breachRules.ts).
import type { ResolutionChange } from './BreachStore.ts';

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
