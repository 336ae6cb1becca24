import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';

const TYPES: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp', 'image/svg+xml': 'svg' };
const MAX_BYTES = 256 * 1024;
const TIMEOUT_MS = 5000;
/** After a failed fetch, do not try the same logo again for this long (the UI draws a fallback). */
const RETRY_AFTER_MS = 10 * 60_000;

/**
 * Breach logos, fetched once by the core and kept in `<data>/logos`, handed to the renderer as
 * `data:` URLs (the CSP allows `img-src 'self' data:`): the renderer never loads anything from
 * another origin. An unreachable logo (Have I Been Pwned's are, on many machines) answers
 * nothing, and the UI draws its fallback.
 */
export class LogoCache {
  readonly #dir: string;
  readonly #fetch: typeof fetch;
  readonly #now: () => number;
  readonly #failedAt = new Map<string, number>();
  readonly #inFlight = new Map<string, Promise<string | undefined>>();

  constructor(options: { dir: string; fetch?: typeof fetch; now?: () => number }) {
    this.#dir = options.dir;
    this.#fetch = options.fetch ?? fetch;
    this.#now = options.now ?? Date.now;
  }

  /** The logo at `logoPath` (resolved against `base`), as a data URL, or undefined. */
  async dataUrl(logoPath: string, base: string): Promise<string | undefined> {
    if (!logoPath) return undefined;
    let url: URL;
    try {
      url = new URL(logoPath, base.endsWith('/') ? base : `${base}/`);
    } catch {
      return undefined;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    const key = createHash('sha256').update(url.href).digest('hex').slice(0, 32);
    const cached = this.#read(key);
    if (cached) return cached;
    const failed = this.#failedAt.get(key);
    if (failed !== undefined && this.#now() - failed < RETRY_AFTER_MS) return undefined;
    if (!mayFetchLogo(url, base)) return undefined;
    let pending = this.#inFlight.get(key);
    if (!pending) {
      pending = this.#download(url, key).finally(() => this.#inFlight.delete(key));
      this.#inFlight.set(key, pending);
    }
    return pending;
  }

  async #download(url: URL, key: string): Promise<string | undefined> {
    try {
      // No redirects: a hop could lead where mayFetchLogo would not go.
      const response = await this.#fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
      const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      const ext = TYPES[type];
      if (!response.ok || !ext) throw new Error(`not an image (${response.status} ${type})`);
      const bytes = await readAtMost(response, MAX_BYTES);
      if (bytes.length === 0) throw new Error('empty');
      mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
      const file = path.join(this.#dir, `${key}.${ext}`);
      writeFileSync(`${file}.tmp`, bytes, { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
      this.#failedAt.delete(key);
      return toDataUrl(type, bytes);
    } catch {
      this.#failedAt.set(key, this.#now());
      return undefined;
    }
  }

  #read(key: string): string | undefined {
    for (const [type, ext] of Object.entries(TYPES)) {
      try {
        return toDataUrl(type, readFileSync(path.join(this.#dir, `${key}.${ext}`)));
      } catch {
        // not cached in this format
      }
    }
    return undefined;
  }
}

/**
 * The body, read only as far as `limit` bytes: a longer one (declared or sent) is refused and
 * its download stopped there, so a hostile host cannot fill the app's memory for the whole timeout.
 */
async function readAtMost(response: Response, limit: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > limit) {
    await response.body?.cancel();
    throw new Error(`size ${declared}`);
  }
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw new Error(`size over ${limit}`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * Where a catalog may send the core for a logo: the feed's own origin, or https to a public host.
 * A hostile catalog must not make the core probe the person's machine or network (loopback,
 * private and link-local addresses, `localhost`), which the browser's own rules would have
 * stopped for a page (docs/security.md). A public name that resolves to a private address is not
 * caught here (DNS rebinding); the fetch takes only images of at most 256 KB and shows nothing else.
 */
export function mayFetchLogo(url: URL, base: string): boolean {
  let feedOrigin: string | undefined;
  try {
    feedOrigin = new URL(base).origin;
  } catch {
    feedOrigin = undefined;
  }
  if (url.origin === feedOrigin) return true;
  return url.protocol === 'https:' && !isPrivateHost(url.hostname);
}

function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host === '') return true;
  const version = isIP(host);
  if (version === 4) return isPrivateIPv4(host);
  if (version === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    if (mapped) return isPrivateIPv4(mapped[1]!);
    return host === '::' || host === '::1' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host);
  }
  return false;
}

function isPrivateIPv4(host: string): boolean {
  const [a, b] = host.split('.').map(Number) as [number, number];
  return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
}

function toDataUrl(type: string, bytes: Buffer): string {
  return `data:${type};base64,${bytes.toString('base64')}`;
}
