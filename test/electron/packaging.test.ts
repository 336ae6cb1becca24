import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { LinuxPackager, WinPackager } from 'app-builder-lib';
import { validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { afterPack, binaryPath, FUSES, verifyFuses } from '../../electron/build/fuses.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
/** The parts of electron-builder.yml these tests read. */
interface BuilderConfig {
  appId: string;
  productName: string;
  asar: { smartUnpack: boolean };
  npmRebuild: boolean;
  deb: { depends: string[] };
  files: string[];
  asarUnpack: string[];
  extraResources: { from: string; to: string }[];
  afterPack: string;
  linux: { target: string[]; category: string; icon: string };
  mac: { target: string[]; hardenedRuntime: boolean; icon: string };
  win: { target: string[]; icon: string };
}

/** The parts of electron.vite.config.ts these tests read. */
interface ViteConfig {
  main: { build: { rolldownOptions: { input: Record<string, string>; external: string[] } } };
  preload: { build: { externalizeDeps: boolean; rolldownOptions: { input: Record<string, string>; output: Record<string, unknown> } } };
  renderer: { root: string; build: { outDir: string; rolldownOptions: { input: Record<string, string> } } };
}

const builderConfig = parse(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Width and height from a PNG's IHDR, after checking the signature. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(bytes.toString('ascii', 12, 16)).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Marks the fuse wire in Electron binaries (@electron/fuses keeps it internal). */
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

/** Bytes standing in for an Electron binary: a fuse wire with Electron's defaults amid filler. */
function fakeElectronBinary(file: string, wireLength = 9): void {
  const defaults = '101100011'.padEnd(wireLength, '0');
  writeFileSync(file, Buffer.concat([Buffer.alloc(4096, 7), Buffer.from(SENTINEL), Buffer.from([1, wireLength]), Buffer.from(defaults), Buffer.alloc(4096, 7)]));
}

describe('fuses', () => {
  it('turn off run-as-node, NODE_OPTIONS and inspect; turn on cookie encryption, ASAR integrity and ASAR-only', () => {
    expect(FUSES).toMatchObject({
      version: '1',
      strictlyRequireAllFuses: true,
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableCookieEncryption]: true,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
      [FuseV1Options.OnlyLoadAppFromAsar]: true,
      [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
    });
  });

  it('are flipped in the packed binary by the afterPack hook, then verified', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'fuses-'));
    fakeElectronBinary(path.join(dir, 'breach-monitor'));
    const packager = Object.assign(Object.create(LinuxPackager.prototype) as object, { executableName: 'breach-monitor' });
    await afterPack({ appOutDir: dir, electronPlatformName: 'linux', arch: 1, packager } as never);
    const wire = (await getCurrentFuseWire(path.join(dir, 'breach-monitor'))) as unknown as Record<number, number>;
    expect(wire[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(FuseState.DISABLE);
  });

  it("are looked for where electron-builder's own fuse helper looks", async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'fuses-'));
    const linux = Object.assign(Object.create(LinuxPackager.prototype) as object, { executableName: 'breach-monitor', appInfo: { productFilename: 'Breach Monitor' } });
    const windows = Object.assign(Object.create(WinPackager.prototype) as object, { appInfo: { productFilename: 'Breach Monitor' } });
    for (const [packager, electronPlatformName] of [
      [linux, 'linux'],
      [windows, 'win32'],
    ] as const) {
      const context = { appOutDir: dir, electronPlatformName, arch: 1, packager } as never;
      fakeElectronBinary(binaryPath(context));
      // electron-builder's helper finds the binary at the same path, or throws ENOENT.
      await expect((packager as LinuxPackager).addElectronFuses(context, { version: '1' } as never)).resolves.toBe(1);
    }
    expect(binaryPath({ appOutDir: '/o', electronPlatformName: 'darwin', packager: { appInfo: { productFilename: 'Breach Monitor' } } } as never)).toBe('/o/Breach Monitor.app');
  });

  it('refuse a binary whose fuses are not as configured', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'fuses-'));
    fakeElectronBinary(path.join(dir, 'electron'));
    await expect(verifyFuses(path.join(dir, 'electron'))).rejects.toThrow(/RunAsNode/);
  });

  it('fail packaging when Electron grows a fuse nobody has decided on', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'fuses-'));
    fakeElectronBinary(path.join(dir, 'breach-monitor'), 10);
    const packager = Object.assign(Object.create(LinuxPackager.prototype) as object, { executableName: 'breach-monitor' });
    await expect(afterPack({ appOutDir: dir, electronPlatformName: 'linux', arch: 1, packager } as never)).rejects.toThrow(/strictlyRequireAllFuses/);
  });
});

describe('electron-builder.yml', () => {
  it("passes electron-builder's own schema", async () => {
    await expect(validateConfiguration(builderConfig as never, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('packs the built app into an ASAR, unpacking only native binaries, rebuilding nothing', () => {
    expect(builderConfig).toMatchObject({ appId: 'org.breachmonitor.desktop', productName: 'Breach Monitor', asar: { smartUnpack: false }, npmRebuild: false });
    expect(builderConfig.files).toContain('out/**/*');
    expect(builderConfig.files).toContain('node_modules/better-sqlite3/prebuilds/${platform}-${arch}.node');
    expect(builderConfig.asarUnpack).toEqual(['**/*.node']);
  });

  it('makes the .deb depend on what the prebuilt binaries link', () => {
    expect(builderConfig.deb.depends).toEqual(expect.arrayContaining(['libc6 (>= 2.34)', 'libstdc++6 (>= 11)', 'libsecret-1-0', 'libnss3', 'libgtk-3-0']));
  });

  it('builds AppImage and deb on Linux, dmg on macOS (hardened runtime) and nsis on Windows', () => {
    expect(builderConfig.linux.target).toEqual(['AppImage', 'deb']);
    expect(builderConfig.linux.category).toBe('Utility');
    expect(builderConfig.mac.target).toEqual(['dmg']);
    expect(builderConfig.mac.hardenedRuntime).toBe(true);
    expect(builderConfig.win.target).toEqual(['nsis']);
  });

  it('takes icons of the right sizes from resources/', () => {
    const linuxIcons = path.join(root, builderConfig.linux.icon);
    for (const size of [16, 32, 256, 512]) expect(pngSize(path.join(linuxIcons, `${size}x${size}.png`))).toEqual({ width: size, height: size });
    expect(pngSize(path.join(root, builderConfig.mac.icon)).width).toBeGreaterThanOrEqual(512);
    expect(pngSize(path.join(root, builderConfig.win.icon)).width).toBeGreaterThanOrEqual(256);
    expect(readFileSync(path.join(root, 'resources', 'icon.svg'), 'utf8')).toMatch(/^<svg [^>]*viewBox="0 0 512 512"/);
  });

  it('ships the tray images and notification icon the main process reads at run time', () => {
    for (const { from } of builderConfig.extraResources) expect(existsSync(path.join(root, from))).toBe(true);
    const tray = builderConfig.extraResources.find((entry) => entry.to === 'tray')!;
    for (const [file, size] of [
      ['tray.png', 16],
      ['tray@2x.png', 32],
      ['trayTemplate.png', 16],
      ['trayTemplate@2x.png', 32],
    ] as const) {
      expect(pngSize(path.join(root, tray.from, file))).toEqual({ width: size, height: size });
    }
  });

  it('runs the fuses hook after packing', async () => {
    expect(builderConfig.afterPack).toMatch(/^\.\//);
    const hook = path.join(root, builderConfig.afterPack);
    expect(statSync(hook).isFile()).toBe(true);
    const module = (await import(pathToFileURL(hook).href)) as { afterPack?: unknown };
    expect(module.afterPack).toBe(afterPack);
  });
});

describe('electron.vite.config.ts', () => {
  it('builds main and the core entry, a sandbox-ready preload and the renderer in one go', async () => {
    const { default: config } = (await import('../../electron.vite.config.ts')) as unknown as { default: ViteConfig };
    const main = config.main.build;
    expect(Object.keys(main.rolldownOptions.input)).toEqual(['index', 'coreEntry']);
    expect(main.rolldownOptions.external).toEqual(expect.arrayContaining(['better-sqlite3', 'keytar']));
    const preload = config.preload.build;
    expect(preload.externalizeDeps).toBe(false);
    expect(preload.rolldownOptions.output).toMatchObject({ format: 'cjs', entryFileNames: '[name].cjs' });
    expect(config.renderer.root).toBe(path.join(root, 'renderer'));
    expect(config.renderer.build.outDir).toBe(path.join(root, 'out', 'renderer'));
    expect(config.renderer.build.rolldownOptions.input.index).toBe(path.join(root, 'renderer', 'index.html'));
    for (const entry of [...Object.values(main.rolldownOptions.input), preload.rolldownOptions.input.index!]) {
      expect(entry.startsWith(path.join(root, 'electron'))).toBe(true);
    }
  });
});
