import type { ServerResponse } from 'node:http';
import { PROBLEM_CONTENT_TYPE, type Problem, type ProblemFieldError } from '../../shared/api/index.ts';

const TITLES: Record<number, string> = {
  400: 'Invalid request',
  401: 'Authentication required',
  403: 'Not authorized',
  404: 'Not found',
  405: 'Method not allowed',
  406: 'Not acceptable',
  408: 'Request timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Request body too large',
  415: 'Unsupported media type',
  421: 'Misdirected request',
  422: 'Unprocessable content',
  429: 'Too many requests',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
};

/** An error that becomes an RFC 9457 answer; thrown by handlers, rendered once by the router. */
export class HttpProblem extends Error {
  readonly status: number;
  readonly detail: string;
  readonly errors: ProblemFieldError[] | undefined;
  readonly headers: Record<string, string>;
  constructor(status: number, detail: string, options: { errors?: ProblemFieldError[]; headers?: Record<string, string> } = {}) {
    super(detail);
    this.status = status;
    this.detail = detail;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }
}

export function problemBody(status: number, detail: string, errors?: ProblemFieldError[], instance?: string): Problem {
  const title = TITLES[status] ?? 'Error';
  return {
    type: `https://breach-monitor.local/problems/${status}`,
    title,
    status,
    detail,
    ...(instance ? { instance } : {}),
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
}

export function sendProblem(res: ServerResponse, problem: HttpProblem, instance?: string): void {
  const body = JSON.stringify(problemBody(problem.status, problem.detail, problem.errors, instance));
  res.writeHead(problem.status, {
    ...problem.headers,
    'content-type': PROBLEM_CONTENT_TYPE,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(body);
}
