import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { ItemKey } from './TripleStore.ts';

/** Where the next page starts: after item `after` of arc `arc` of the `node`-th queried node. */
export interface PageCursor {
  node: number;
  arc: string;
  after: ItemKey;
}

/** What a token is valid for: the same nodes and expression, over the same graph generation. */
export interface TokenBinding {
  /** The queried nodes, deduplicated and ordered as the engine answers them. */
  nodes: readonly string[];
  /** The canonical (printed) expression, so `->[a,b]` and `->[a, b]` share tokens. */
  property: string;
  generation: number;
}

export type PageTokenProblem = 'malformed' | 'forged' | 'foreign' | 'stale';

export class PageTokenError extends Error {
  override readonly name = 'PageTokenError';
  readonly problem: PageTokenProblem;
  constructor(problem: PageTokenProblem, message: string) {
    super(message);
    this.problem = problem;
  }
}

const VERSION = 1;
const MAC_BYTES = 32;

/**
 * A token is `base64url(payload) "." base64url(HMAC-SHA256(secret, payload))`. The payload is not
 * secret (it holds a position in a public graph), but it is opaque to callers and any change to it
 * breaks the MAC; it names the query it belongs to, so a token is refused for any other query.
 */
export function sealPageToken(secret: Uint8Array, binding: TokenBinding, cursor: PageCursor): string {
  const payload = JSON.stringify({ v: VERSION, q: queryDigest(binding), g: binding.generation, c: [cursor.node, cursor.arc, cursor.after.kind === 'node' ? 'n' : 'l', cursor.after.key] });
  const body = Buffer.from(payload).toString('base64url');
  return `${body}.${mac(secret, body).toString('base64url')}`;
}

export function openPageToken(secret: Uint8Array, token: string, binding: TokenBinding): PageCursor {
  const dot = token.indexOf('.');
  const body = dot > 0 ? token.slice(0, dot) : '';
  const signature = dot > 0 ? Buffer.from(token.slice(dot + 1), 'base64url') : Buffer.alloc(0);
  if (!body || signature.length !== MAC_BYTES) throw new PageTokenError('malformed', 'nextToken is not a token this service issued');
  if (!timingSafeEqual(signature, mac(secret, body))) throw new PageTokenError('forged', 'nextToken was altered or issued by another service');
  const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { v: number; q: string; g: number; c: [number, string, 'n' | 'l', string] };
  if (payload.v !== VERSION) throw new PageTokenError('malformed', 'nextToken is from another version of this service; start the query again');
  if (payload.q !== queryDigest(binding)) throw new PageTokenError('foreign', 'nextToken belongs to another query; send the same nodes and property as the first request');
  if (payload.g !== binding.generation) throw new PageTokenError('stale', 'the graph changed since this nextToken was issued; start the query again');
  const [node, arc, kind, key] = payload.c;
  return { node, arc, after: { kind: kind === 'n' ? 'node' : 'literal', key } };
}

function mac(secret: Uint8Array, body: string): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

function queryDigest(binding: TokenBinding): string {
  const hash = createHash('sha256');
  for (const node of binding.nodes) hash.update(node).update('\u0000');
  return hash.update('\u0001').update(binding.property).digest('base64url').slice(0, 22);
}
