import type { IncomingMessage } from 'node:http';
import { HttpProblem } from './problems.ts';

/**
 * The `Host` values this service answers to: its own loopback names on its port, and the public
 * origin it is configured with. A browser page whose hostname was rebound to 127.0.0.1 still
 * sends its own name in `Host`, so refusing foreign names here stops DNS rebinding on every
 * mount at once (API, identity provider, `/v2/node`, development surface, and any added later).
 */
export function serviceHostNames(port: number, extraOrigins: readonly string[] = []): Set<string> {
  const names = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  for (const origin of extraOrigins) names.add(new URL(origin).host.toLowerCase());
  return names;
}

/** Throws 421 unless the request's `Host` is one of `names` (compared case-insensitively). */
export function checkHost(req: IncomingMessage, names: ReadonlySet<string>): void {
  const host = req.headers.host;
  if (host !== undefined && names.has(host.toLowerCase())) return;
  throw new HttpProblem(421, `this service does not answer for the host ${JSON.stringify(host ?? '')}; use ${[...names][0]}`);
}
