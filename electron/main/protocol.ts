import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { protocol } from 'electron';

export const APP_SCHEME = 'app';
export const APP_HOST = 'bundle';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * Sent with every response of the app:// protocol. Scripts only from the bundle (no inline, no
 * eval), inline styles allowed because React's style props set them, nothing framed, no forms
 * posted anywhere, and the renderer talks to the core over its MessagePort, never the network.
 */
// One policy for both hosts (Electron's app:// and the browser host), defined beside the IPC contract.
export { CONTENT_SECURITY_POLICY } from '../../shared/ipc/security.ts';
import { CONTENT_SECURITY_POLICY } from '../../shared/ipc/security.ts';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Must run before `app` is ready: app:// then behaves like https (origin, fetch, secure context). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } }]);
}

export function registerAppProtocol(rendererDir: string): void {
  protocol.handle(APP_SCHEME, createAppProtocolHandler(rendererDir));
}

/**
 * Serves files of the built renderer and nothing else: one host, no dot segments, no encoded
 * separators, no symlink leading out of the folder. Every refusal looks like a missing file.
 */
export function createAppProtocolHandler(rendererDir: string): (request: Request) => Promise<Response> {
  const root = path.resolve(rendererDir);
  let realRoot: Promise<string> | undefined;

  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return respond(405, 'method not allowed', { Allow: 'GET, HEAD' });
    const relative = relativePathOf(request.url);
    if (relative === undefined) return notFound();
    const candidate = path.resolve(root, relative);
    if (!isInside(root, candidate)) return notFound();
    try {
      realRoot ??= realpath(root);
      const real = await realpath(candidate);
      if (!isInside(await realRoot, real) || !(await stat(real)).isFile()) return notFound();
      const body = request.method === 'HEAD' ? null : await readFile(real);
      return new Response(body, { status: 200, headers: headers({ 'Content-Type': contentTypeOf(real) }) });
    } catch {
      realRoot = undefined;
      return notFound();
    }
  };
}

/** The file a URL names relative to the renderer folder, or undefined when it must be refused. */
export function relativePathOf(rawUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST || url.username || url.password || url.port) return undefined;
  const encoded = url.pathname;
  // Encoded separators and NULs would survive the URL parser's dot-segment removal.
  if (/%(2f|5c|00)/i.test(encoded) || encoded.includes('\\')) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
  const segments = decoded.split('/').slice(1);
  if (segments.some((segment) => segment === '..' || segment === '.' || segment.includes('\0'))) return undefined;
  const relative = segments.join('/');
  return relative === '' ? 'index.html' : relative;
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

function headers(extra: Record<string, string>): Headers {
  return new Headers({
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
    ...extra,
  });
}

function respond(status: number, text: string, extra: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: headers({ 'Content-Type': 'text/plain; charset=utf-8', ...extra }) });
}

function notFound(): Response {
  return respond(404, 'not found');
}
