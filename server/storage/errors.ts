// Errors of the storage every feature stands on (a feature's own refusals live with it:
// breaches/errors.ts).

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
