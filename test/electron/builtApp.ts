import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(import.meta.dirname, '..', '..');

export interface BuiltApp {
  /** Laid out as the packed app is: package.json, out/main, out/preload, out/renderer, resources/. */
  dir: string;
  remove(): void;
}

/**
 * Builds the app with electron-vite (the same command as `npm run build`) into a folder of its
 * own, so tests running side by side never read each other's half-written `out/`. The folder is
 * inside the project so `better-sqlite3` resolves from its node_modules, as it does from app.asar.
 */
export async function buildApp(): Promise<BuiltApp> {
  const base = path.join(root, '.test-builds');
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(path.join(base, 'app-'));
  await promisify(execFile)(process.execPath, [path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build', '--outDir', path.join(dir, 'out'), '--logLevel', 'error'], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024,
  });
  copyFileSync(path.join(root, 'package.json'), path.join(dir, 'package.json'));
  cpSync(path.join(root, 'resources'), path.join(dir, 'resources'), { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
