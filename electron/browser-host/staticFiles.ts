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

/**
 * A file of the built renderer for a URL path below the app prefix, or undefined. Only files
 * inside `root` (after resolving symlinks) are ever read; a path without an extension is a
 * client-side route and gets `index.html`.
 */
export async function resolveRendererFile(root: string, urlPath: string): Promise<{ body: Buffer; type: string } | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const relative = decoded.replace(/^\/+/, '');
  if (relative.split('/').some((segment) => segment === '..' || segment.startsWith('.'))) return undefined;
  const candidate = path.extname(relative) === '' ? 'index.html' : relative;
  const realRoot = await realpath(root).catch(() => undefined);
  if (!realRoot) return undefined;
  const resolved = await realpath(path.join(realRoot, candidate)).catch(() => undefined);
  if (!resolved || !resolved.startsWith(realRoot + path.sep)) return undefined;
  const info = await stat(resolved);
  if (!info.isFile()) return undefined;
  const type = TYPES[path.extname(resolved).toLowerCase()];
  if (!type) return undefined;
  return { body: await readFile(resolved), type };
}
