import type { ServerResponse } from 'node:http';
import { SearchCodes } from '../../shared/search/index.ts';
import { BodyKeyProblem } from '../http/body.ts';
import { HttpProblem } from '../http/problems.ts';
import { StoreUnavailableError } from '../storage/errors.ts';

/** Seconds a client waits before retrying while the database is away (as the breach API says). */
const DATABASE_RETRY_AFTER_SEC = 5;

/**
 * An error of the search interface: answered as the platform's envelope (`result: null`,
 * `success: false`, the root cause directly in `errors`, no `error_chain`).
 */
export class SearchError extends Error {
  readonly status: number;
  readonly errors: { code: number; message: string }[];
  readonly headers: Record<string, string>;
  constructor(status: number, code: number, message: string, options: { more?: { code: number; message: string }[]; headers?: Record<string, string> } = {}) {
    super(message);
    this.status = status;
    this.errors = [{ code, message }, ...(options.more ?? [])];
    this.headers = options.headers ?? {};
  }
}

const CODE_OF_STATUS: Record<number, number> = {
  400: SearchCodes.malformedBody,
  405: SearchCodes.methodNotAllowed,
  413: SearchCodes.bodyTooLarge,
  415: SearchCodes.unsupportedMediaType,
};

/**
 * The shared HTTP helpers (body reading) throw `HttpProblem`, the stores `StoreUnavailableError`
 * while PostgreSQL is away; here they become envelope errors (503 with `Retry-After` for the latter).
 */
export function toSearchError(error: unknown): SearchError | undefined {
  if (error instanceof SearchError) return error;
  if (error instanceof StoreUnavailableError) {
    return new SearchError(503, SearchCodes.unavailable, 'the search service cannot reach its database; try again shortly', { headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SEC) } });
  }
  // A well-formed body with a key it cannot have is an invalid request, worded like the schema's own refusals.
  if (error instanceof BodyKeyProblem) return new SearchError(400, SearchCodes.invalidRequest, `${error.pointer}: ${error.reason}`, { headers: error.headers });
  if (error instanceof HttpProblem) return new SearchError(error.status, CODE_OF_STATUS[error.status] ?? SearchCodes.invalidRequest, error.detail, { headers: error.headers });
  return undefined;
}

export function sendEnvelope(res: ServerResponse, status: number, result: unknown, messages: { code: number; message: string }[] = [], headers: Record<string, string> = {}): void {
  sendEnvelopeJson(res, status, envelopeJson(result, messages), headers);
}

/** The success envelope as the bytes sent, so an answer can be serialized once and sent many times. */
export function envelopeJson(result: unknown, messages: { code: number; message: string }[] = []): string {
  return JSON.stringify({ result, success: true, errors: [], messages });
}

export function sendEnvelopeJson(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', ...headers });
  res.end(body);
}

export function sendSearchError(res: ServerResponse, error: SearchError): void {
  const body = JSON.stringify({ result: null, success: false, errors: error.errors, messages: [] });
  res.writeHead(error.status, { ...error.headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}
