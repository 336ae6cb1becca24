import { scrubTokenShapes, type Redactor } from './redact.ts';

/** Fields are plain data: never a token, a code, a verifier or a response body. */
export type LogFields = Record<string, string | number | boolean | undefined | null>;

/** The small logger the auth module writes to; the host decides where lines go. */
export interface AuthLogger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export const silentLogger: AuthLogger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * Wraps a logger so every message and string field is scrubbed before it leaves: the call sites
 * already log no secrets, this is the second lock on the same door.
 */
export function redactingLogger(logger: AuthLogger, redactor?: Redactor): AuthLogger {
  const scrub = (text: string) => (redactor ? redactor.scrub(text) : scrubTokenShapes(text));
  const clean = (fields: LogFields | undefined): LogFields | undefined =>
    fields && Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, typeof value === 'string' ? scrub(value) : value]));
  return {
    debug: (message, fields) => logger.debug(scrub(message), clean(fields)),
    info: (message, fields) => logger.info(scrub(message), clean(fields)),
    warn: (message, fields) => logger.warn(scrub(message), clean(fields)),
    error: (message, fields) => logger.error(scrub(message), clean(fields)),
  };
}

/** What may be logged of an error: its name, code and scrubbed message, never its cause chain or response. */
export function describeError(error: unknown): LogFields {
  if (!(error instanceof Error)) return { error: scrubTokenShapes(String(error)) };
  const code = (error as { code?: unknown }).code;
  // One level of cause, message only: openid-client puts the failed check there ('unexpected JWT "iss" (issuer) claim value').
  const cause = error.cause instanceof Error ? scrubTokenShapes(error.cause.message) : undefined;
  return { error: error.name, message: scrubTokenShapes(error.message), ...(typeof code === 'string' ? { code } : {}), ...(cause ? { cause } : {}) };
}
