import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { readAsar, readAsarJson } from 'app-builder-lib/out/asar/asar.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyFuses } from '../../electron/build/fuses.ts';
import { NATIVE_MODULES } from '../../electron.vite.config.ts';
import { buildApp, type BuiltApp } from './builtApp.ts';

// Packs the app as `npm run package` does, with electron-builder's own CLI and the project's
// electron-builder.yml, for linux-x64 as an unpacked folder (`--dir`), and looks inside. The
// Electron runtime cannot be downloaded here, so `electronDist` points at a locally assembled
// stand-in: electron-builder takes any folder without a release zip in it as "a custom unpacked
// Electron distribution" and copies it (app-builder-lib ElectronFramework `selectElectron`). The
// stand-in's binary carries a fuse wire with Electron 45's defaults, so the afterPack hook has
// something real to flip. Offline: no rebuild (npmRebuild false), no download.

const root = path.resolve(import.meta.dirname, '..', '..');
/** Marks the fuse wire in Electron binaries (as in packaging.test.ts). */
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** Packages of the reference service (and what it alone pulls in) that must never ship. */
const SERVICE_PACKAGES = ['oidc-provider', 'koa', '@koa/router', 'pino', 'yaml', 'jose', 'openid-client', 'zod', 'node-addon-api', 'prebuild-install'];

/**
 * The native modules this checkout has: keytar is optional (npm leaves it out where it cannot be
 * built, e.g. without libsecret-1-dev), and the packed app then ships without it.
 */
const INSTALLED_NATIVE = NATIVE_MODULES.filter((name) => existsSync(path.join(root, 'node_modules', name, 'package.json')));
const UNPACKED_BINARIES: Record<string, string> = {
  'better-sqlite3': 'node_modules/better-sqlite3/prebuilds/linux-x64.node',
  keytar: 'node_modules/keytar/build/Release/keytar.node',
};

let app: BuiltApp;
let work: string;
let appOutDir: string;
let asarPath: string;
let listing: Map<string, { size?: number; unpacked?: boolean }>;

/** An unpacked Electron for linux-x64 as far as electron-builder looks at one. */
function electronDistStandIn(dir: string): void {
  mkdirSync(path.join(dir, 'resources'), { recursive: true });
  mkdirSync(path.join(dir, 'locales'));
  const binary = path.join(dir, 'electron');
  writeFileSync(binary, Buffer.concat([Buffer.alloc(4096, 7), Buffer.from(SENTINEL), Buffer.from([1, 9]), Buffer.from('101100011'), Buffer.alloc(4096, 7)]));
  chmodSync(binary, 0o755);
  writeFileSync(path.join(dir, 'version'), '45.4.1');
  writeFileSync(path.join(dir, 'LICENSE'), 'Electron stand-in for packaging tests');
  writeFileSync(path.join(dir, 'locales', 'en-US.pak'), '');
}

/** Every path in the archive's header, with its entry. */
function walk(node: { files?: Record<string, never> }, prefix = '', into = new Map<string, { size?: number; unpacked?: boolean }>()) {
  for (const [name, child] of Object.entries(node.files ?? {}) as [string, { files?: Record<string, never>; size?: number; unpacked?: boolean }][]) {
    const full = `${prefix}${name}`;
    into.set(full, child);
    if (child.files) walk(child, `${full}/`, into);
  }
  return into;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

function sizeOf(target: string): number {
  const stat = statSync(target);
  return stat.isDirectory() ? filesUnder(target).reduce((sum, file) => sum + statSync(path.join(target, file)).size, 0) : stat.size;
}

beforeAll(async () => {
  app = await buildApp();
  // The build folder becomes the project electron-builder packs: its package.json, lock file and
  // (linked) node_modules, so the dependency tree is the real one.
  copyFileSync(path.join(root, 'package-lock.json'), path.join(app.dir, 'package-lock.json'));
  symlinkSync(path.join(root, 'node_modules'), path.join(app.dir, 'node_modules'), 'dir');
  work = mkdtempSync(path.join(os.tmpdir(), 'packed-app-'));
  electronDistStandIn(path.join(work, 'electron-dist'));
  await promisify(execFile)(
    process.execPath,
    [
      path.join(root, 'node_modules', 'electron-builder', 'cli.js'),
      '--dir',
      '--linux',
      '--x64',
      '--projectDir',
      app.dir,
      '--config',
      path.join(root, 'electron-builder.yml'),
      `-c.electronDist=${path.join(work, 'electron-dist')}`,
      `-c.directories.output=${path.join(work, 'dist')}`,
      `-c.afterPack=${path.join(root, 'electron', 'build', 'fuses.ts')}`,
    ],
    { cwd: app.dir, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, CI: '1' } },
  );
  appOutDir = path.join(work, 'dist', 'linux-unpacked');
  asarPath = path.join(appOutDir, 'resources', 'app.asar');
  listing = walk((await readAsar(asarPath)).header as never);
  const unpacked = path.join(appOutDir, 'resources', 'app.asar.unpacked');
  // Kept in the README ("Packaging"): the size of what ships besides Electron itself.
  console.log(`packed size: app.asar ${(sizeOf(asarPath) / 1e6).toFixed(2)} MB, app.asar.unpacked ${(sizeOf(unpacked) / 1e6).toFixed(2)} MB (${filesUnder(unpacked).length} files)`);
}, 120_000);

afterAll(() => {
  app?.remove();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed app (electron-builder --dir, linux-x64)', () => {
  it('holds the three bundles, the core and a package.json that starts them as ES modules', async () => {
    for (const file of ['out/main/index.js', 'out/main/coreEntry.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'package.json']) expect(listing.has(file), file).toBe(true);
    expect([...listing.keys()].some((file) => file.startsWith('out/renderer/assets/') && file.endsWith('.js'))).toBe(true);
    // The core is bundled into the utility process's entry and its chunks: every relative import resolves inside the archive.
    for (const entry of ['index.js', 'coreEntry.js']) {
      const source = readFileSync(path.join(app.dir, 'out', 'main', entry), 'utf8');
      const imports = [...source.matchAll(/from "(\.\/[^"]+)"/g)].map((match) => path.posix.join('out/main', match[1]!));
      for (const imported of imports) expect(listing.has(imported), imported).toBe(true);
    }
    expect(readFileSync(path.join(app.dir, 'out', 'main', 'coreEntry.js'), 'utf8')).toMatch(/startCore|runUtilityHost/);
    const packed = (await readAsarJson(asarPath, 'package.json')) as { type: string; main: string; dependencies: Record<string, string> };
    // lib/utility/init.ts loads the core with the ESM loader: the package scope must say "module".
    expect(packed).toMatchObject({ type: 'module', main: 'out/main/index.js' });
    expect(Object.keys(packed.dependencies)).toEqual(['better-sqlite3']);
    expect([...listing.keys()].some((file) => file.startsWith('server/') || file.startsWith('electron/') || file.startsWith('engine/') || file.startsWith('shared/'))).toBe(false);
    expect([...listing.keys()].filter((file) => file.endsWith('.map'))).toEqual([]);
  });

  it('ships only the native modules the bundles leave external, none of the service', () => {
    const packages = new Set([...listing.keys()].map((file) => /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1]).filter((name) => name !== undefined));
    expect([...packages].sort()).toEqual([...INSTALLED_NATIVE].sort());
    for (const name of SERVICE_PACKAGES) expect(packages.has(name), name).toBe(false);
  });

  it('unpacks exactly one binary per native module, for linux-x64, and no native sources', () => {
    const unpacked = filesUnder(path.join(appOutDir, 'resources', 'app.asar.unpacked')).sort();
    expect(unpacked).toEqual(INSTALLED_NATIVE.map((name) => UNPACKED_BINARIES[name]).sort());
    expect([...listing.keys()].filter((file) => /\.(c|cc|cpp|h|hpp|gyp|gypi)$|\/deps\/|\/src\//.test(file))).toEqual([]);
    expect(listing.get('node_modules/better-sqlite3/prebuilds/linux-x64.node')?.unpacked).toBe(true);
  });

  it('ran the afterPack hook: the fuses of the packed binary are flipped', async () => {
    await expect(verifyFuses(path.join(appOutDir, 'breach-monitor'))).resolves.toBeUndefined();
  });

  it('keeps the desktop dependencies to the native modules', () => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; optionalDependencies?: Record<string, string> };
    expect(Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies }).sort()).toEqual([...NATIVE_MODULES].sort());
  });
});
