import type { ServerResponse } from 'node:http';
import { FIREFOX_ERROR_STATUS, type FirefoxError, type FirefoxErrorCode } from '../../shared/api/index.ts';
import type { HttpProblem } from '../http/problems.ts';

/** An error of the newer contract: answered as `{code, message}` with the code's status. */
export class FirefoxApiError extends Error {
  readonly code: FirefoxErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(code: FirefoxErrorCode, message: string, options: { status?: number; headers?: Record<string, string> } = {}) {
    super(message);
    this.code = code;
    this.status = options.status ?? FIREFOX_ERROR_STATUS[code];
    this.headers = options.headers ?? {};
  }
}

/**
 * The shared HTTP helpers (body reading, method checks, the service's rules) throw RFC 9457
 * problems; under this contract the same failure is worded as a code. 405, 413 and 415 keep
 * their status and are `invalid-request`, the code the contract has for a request it refuses.
 */
export function fromProblem(problem: HttpProblem): FirefoxApiError {
  const code: FirefoxErrorCode =
    problem.status === 401
      ? 'token-invalid'
      : problem.status === 404
        ? 'not-found'
        : problem.status === 429
          ? 'rate-limited'
          : problem.status === 503
            ? 'unavailable'
            : problem.status >= 500
              ? 'internal-error'
              : 'invalid-request';
  const { 'content-type': _ignored, ...headers } = problem.headers;
  return new FirefoxApiError(code, problem.detail, { status: problem.status, headers });
}

export function sendFirefoxError(res: ServerResponse, error: FirefoxApiError): void {
  const body = JSON.stringify({ code: error.code, message: error.message } satisfies FirefoxError);
  res.writeHead(error.status, {
    ...error.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'private, no-store',
  });
  res.end(body);
}
