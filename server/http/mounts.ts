import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkHost } from './hostGate.ts';
import { HttpProblem } from './problems.ts';
import { parseRequestTarget } from './requestTarget.ts';
import { isLoopback } from './respond.ts';

/**
 * One mount of the service: the paths it owns, who it trusts, and the two steps the router runs
 * for every request it owns, in this order and no other: `access`, then `handle` with what
 * `access` settled. A handler's type needs that value, and the router is the only caller, so no
 * request reaches a handler without its mount's access decision.
 */
export interface Mount<Grant = unknown> {
  /** Short name, as in docs/security.md's threat model. */
  name: string;
  /** A path prefix (`/rtdb` owns `/rtdb` and `/rtdb/…`), or with `exact` one path. */
  prefix: string;
  exact?: boolean;
  /** Who may get past `access`, in one sentence (docs/security.md says more). */
  boundary: string;
  /** The access decision: throws to refuse, before the handler, the body or any data is read. */
  access(req: IncomingMessage, url: URL): Promise<Grant>;
  /** Answers the request; false for a path the mount does not have (404). */
  handle(req: IncomingMessage, res: ServerResponse, url: URL, grant: Grant): Promise<boolean>;
  /** Answers an error in the mount's own format (e.g. the database's `{"error": …}`); false to leave it to the router. */
  refuse?(res: ServerResponse, error: unknown): boolean;
}

/** Erases a mount's grant type so mounts of different grants share one table. */
export function mount<G>(definition: Mount<G>): Mount<unknown> {
  return definition as Mount<unknown>;
}

/** Access of a mount that serves only public documents (nothing per person, nothing private). */
export const PUBLIC = async (): Promise<'public'> => 'public';

/**
 * Access of the development surface: loopback callers only (others get the 404 of a path that
 * does not exist), and no cross-site request. A page in the person's browser can send a "simple"
 * request without asking (a form POST, text/plain), so a POST must say `Content-Type:
 * application/json` (which a page can only send after a CORS preflight this service never
 * grants), and a request naming a foreign `Origin` is refused outright.
 */
export function devAccess(ownHosts: ReadonlySet<string>) {
  return async (req: IncomingMessage): Promise<'loopback'> => {
    if (!isLoopback(req)) throw new HttpProblem(404, `nothing here: ${req.method} ${(req.url ?? '').split('?')[0]}`);
    const origin = req.headers.origin;
    if (origin !== undefined && !isOwnOrigin(origin, ownHosts)) throw new HttpProblem(403, `the development surface answers no cross-site request (Origin ${JSON.stringify(origin)})`);
    if (req.method === 'POST') {
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json') throw new HttpProblem(415, 'the development surface takes POST only with Content-Type: application/json');
    }
    return 'loopback';
  };
}

function isOwnOrigin(origin: string, ownHosts: ReadonlySet<string>): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && ownHosts.has(url.host.toLowerCase());
  } catch {
    return false;
  }
}

export function owns(entry: Pick<Mount, 'prefix' | 'exact'>, pathname: string): boolean {
  if (entry.exact) return pathname === entry.prefix;
  if (entry.prefix.endsWith('/')) return pathname.startsWith(entry.prefix);
  return pathname === entry.prefix || pathname.startsWith(entry.prefix + '/');
}

/**
 * The router: the Host gate, then the mount that owns the path, its access decision, its handler.
 * Nothing is routed before the Host gate, and no handler runs before its access decision.
 */
export async function routeThrough(mounts: readonly Mount[], hostNames: ReadonlySet<string>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  checkHost(req, hostNames);
  const url = parseRequestTarget(req);
  const entry = mounts.find((candidate) => owns(candidate, url.pathname));
  if (entry) {
    try {
      const grant = await entry.access(req, url);
      if (await entry.handle(req, res, url, grant)) return;
    } catch (error) {
      if (!res.headersSent && entry.refuse?.(res, error)) return;
      throw error;
    }
  }
  throw new HttpProblem(404, `nothing here: ${req.method} ${url.pathname}`);
}
