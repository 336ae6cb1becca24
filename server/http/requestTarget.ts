import type { IncomingMessage } from 'node:http';
import { HttpProblem } from './problems.ts';

/**
 * The request target as a URL whose pathname is exactly the path that was sent. Resolving it
 * against a base would read `//host/path` as a host, routing `//x/api/v1/user` to the API.
 */
export function parseRequestTarget(req: IncomingMessage): URL {
  const target = req.url ?? '/';
  if (!target.startsWith('/')) throw new HttpProblem(400, 'the request target must be a path starting with "/"');
  try {
    return new URL('http://service.invalid' + target);
  } catch {
    throw new HttpProblem(400, 'the request target is not a valid path');
  }
}
