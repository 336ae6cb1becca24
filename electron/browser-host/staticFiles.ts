import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** What the browser host serves without a session: the bundler's content-hashed code and styles (see {@link resolvePublicAsset}). */
const PUBLIC_ASSET_TYPES = new Set(['.js', '.mjs', '.css', '.woff2', '.svg', '.png']);

/**
 * A file of the built renderer for a URL path below the app prefix, or undefined. Only files
 * inside `root` (after resolving symlinks) are ever read; a path without an extension is a
 * client-side route and gets `index.html`.
 */
export async function resolveRendererFile(root: string, urlPath: string): Promise<{ body: Buffer; type: string } | undefined> {
  const file = await resolveInside(root, urlPath, { routeFallback: true });
  return file && { body: file.body, type: file.type };
}

/**
 * A file the browser host serves without a session, for a URL path below the app prefix: only
 * one of the renderer's `assets/` folder (Vite's output, each name carrying a hash of its
 * content), of a code, style, font or image type. Public code and styles, the same for every
 * person; never `index.html` (no route fallback), a source map or anything outside `assets/`.
 * Served so the page can fetch them while it exchanges its launch code (docs/decisions/0239-apps-hashed-code-styles-served-without.md).
 */
export async function resolvePublicAsset(root: string, urlPath: string): Promise<{ body: Buffer; type: string } | undefined> {
  if (!urlPath.startsWith('/assets/') || !PUBLIC_ASSET_TYPES.has(path.extname(urlPath).toLowerCase())) return undefined;
  const realAssets = await realpath(path.join(root, 'assets')).catch(() => undefined);
  if (!realAssets) return undefined;
  const file = await resolveInside(root, urlPath, { routeFallback: false });
  // Checked again on the resolved path: an encoded extension or a symlink must not widen the set.
  if (!file || !file.resolved.startsWith(realAssets + path.sep) || !PUBLIC_ASSET_TYPES.has(path.extname(file.resolved).toLowerCase())) return undefined;
  return { body: file.body, type: file.type };
}

async function resolveInside(root: string, urlPath: string, { routeFallback }: { routeFallback: boolean }): Promise<{ body: Buffer; type: string; resolved: string } | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const relative = decoded.replace(/^\/+/, '');
  if (relative.split('/').some((segment) => segment === '..' || segment.startsWith('.'))) return undefined;
  if (!routeFallback && path.extname(relative) === '') return undefined;
  const candidate = path.extname(relative) === '' ? 'index.html' : relative;
  const realRoot = await realpath(root).catch(() => undefined);
  if (!realRoot) return undefined;
  const resolved = await realpath(path.join(realRoot, candidate)).catch(() => undefined);
  if (!resolved || !resolved.startsWith(realRoot + path.sep)) return undefined;
  const info = await stat(resolved);
  if (!info.isFile()) return undefined;
  const type = TYPES[path.extname(resolved).toLowerCase()];
  if (!type) return undefined;
  return { body: await readFile(resolved), type, resolved };
}
