/**
 * Which Chromium the tests and `bench:ui` drive. One decision, in this order:
 *
 *  1. `BREACH_MONITOR_CHROMIUM=/path/to/chrome`: exactly that browser (an error if it is missing);
 *     `BREACH_MONITOR_CHROMIUM=packaged` skips the system browsers (how CI exercises the path a
 *     fresh machine takes).
 *  2. A system Chromium, Chrome or Edge at the usual places for this platform.
 *  3. On Linux x64, the headless Chromium that ships inside the npm package `@sparticuz/chromium`
 *     (a devDependency), unpacked once into `node_modules/.cache`.
 *
 * Otherwise there is no browser, and the tests that need one are skipped with a sentence saying
 * how to enable them (see vitest.config.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const BROWSER_VARIABLE = 'BREACH_MONITOR_CHROMIUM';
const root = path.resolve(import.meta.dirname, '../..');

/** The choice, before anything is unpacked: cheap enough for vitest.config.ts. */
export type BrowserChoice = { kind: 'explicit'; executablePath: string } | { kind: 'system'; executablePath: string } | { kind: 'packaged'; version: string } | { kind: 'none'; reason: string };

function systemCandidates(): string[] {
  switch (process.platform) {
    case 'linux':
      return ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/usr/bin/microsoft-edge', '/snap/bin/chromium'];
    case 'darwin':
      return ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium', '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge'];
    case 'win32': {
      const folders = [process.env.PROGRAMFILES, process.env['PROGRAMFILES(X86)'], process.env.LOCALAPPDATA].filter((folder): folder is string => Boolean(folder));
      return folders.flatMap((folder) => [path.join(folder, 'Google/Chrome/Application/chrome.exe'), path.join(folder, 'Microsoft/Edge/Application/msedge.exe')]);
    }
    default:
      return [];
  }
}

function packagedVersion(): string | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  const manifest = path.join(root, 'node_modules/@sparticuz/chromium/package.json');
  if (!existsSync(manifest)) return undefined;
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

export function chooseBrowser(env: NodeJS.ProcessEnv = process.env): BrowserChoice {
  const explicit = env[BROWSER_VARIABLE];
  if (explicit && explicit !== 'packaged') {
    return existsSync(explicit) ? { kind: 'explicit', executablePath: explicit } : { kind: 'none', reason: `${BROWSER_VARIABLE}=${explicit} does not exist` };
  }
  if (explicit !== 'packaged') {
    const found = systemCandidates().find((candidate) => existsSync(candidate));
    if (found) return { kind: 'system', executablePath: found };
  }
  const version = packagedVersion();
  if (version) return { kind: 'packaged', version };
  return {
    kind: 'none',
    reason:
      explicit === 'packaged'
        ? `${BROWSER_VARIABLE}=packaged, but the packaged Chromium (@sparticuz/chromium) exists only for Linux x64 and needs \`npm ci\``
        : `no Chromium, Chrome or Edge found (looked at ${systemCandidates().join(', ') || 'nothing on this platform'})`,
  };
}

/** One line saying which browser the tests use, or why browser tests are skipped and how to enable them. */
export function describeBrowserChoice(choice: BrowserChoice = chooseBrowser()): string {
  switch (choice.kind) {
    case 'explicit':
      return `Browser for tests: ${choice.executablePath} (from ${BROWSER_VARIABLE})`;
    case 'system':
      return `Browser for tests: ${choice.executablePath} (system browser; ${BROWSER_VARIABLE}=packaged uses the npm one)`;
    case 'packaged':
      return `Browser for tests: headless Chromium from @sparticuz/chromium ${choice.version} (no system browser found)`;
    case 'none':
      return `Browser tests skipped: ${choice.reason}. Install Chrome, Chromium or Edge, or set ${BROWSER_VARIABLE}=/path/to/chrome, to run them.`;
  }
}

// The npm package's flags (made for AWS Lambda), minus those that weaken the browser the tests
// are about (the app's Content-Security-Policy and origin checks must meet a browser with web
// security on) and `--single-process`, which Lambda needs but which closes the whole browser
// with the first closed context.
const DROPPED_FLAGS = new Set(['--disable-web-security', '--allow-running-insecure-content', '--single-process']);

/** Unpacks the packaged Chromium once; concurrent test workers race safely (atomic rename). */
async function unpackPackaged(version: string): Promise<string> {
  const cacheRoot = path.join(root, 'node_modules/.cache/sparticuz-chromium');
  const ready = path.join(cacheRoot, version);
  const executable = path.join(ready, 'chromium');
  if (existsSync(executable)) return executable;
  mkdirSync(cacheRoot, { recursive: true });
  const staging = mkdtempSync(path.join(cacheRoot, 'unpacking-'));
  // The package unpacks into os.tmpdir(), which follows TMPDIR: point it at a private folder.
  const previousTmp = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  try {
    const { default: Packaged } = await import('@sparticuz/chromium');
    await Packaged.executablePath();
  } finally {
    if (previousTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmp;
  }
  try {
    renameSync(staging, ready);
  } catch (error) {
    // Another worker finished first: use its copy.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(executable)) throw error;
  }
  return executable;
}

export interface ResolvedBrowser {
  executablePath: string;
  args: string[];
  label: string;
}

export async function resolveBrowser(choice: BrowserChoice = chooseBrowser()): Promise<ResolvedBrowser> {
  switch (choice.kind) {
    case 'explicit':
    case 'system':
      return { executablePath: choice.executablePath, args: ['--no-sandbox', '--disable-gpu'], label: describeBrowserChoice(choice) };
    case 'packaged': {
      const executablePath = await unpackPackaged(choice.version);
      const { default: Packaged } = await import('@sparticuz/chromium');
      // No WebGL in the app: software GL (SwiftShader) would only cost CPU, so graphics off, as
      // for the system browser. `--headless='shell'` carries literal quotes; playwright-core
      // sets the headless mode itself.
      Packaged.setGraphicsMode = false;
      const args = Packaged.args.filter((flag) => !DROPPED_FLAGS.has(flag) && !flag.startsWith('--headless'));
      return { executablePath, args: [...args, '--disable-gpu'], label: describeBrowserChoice(choice) };
    }
    case 'none':
      throw new Error(describeBrowserChoice(choice));
  }
}

const COMMON_ARGS = ['--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Launches the resolved browser headless; `extraArgs` are added after the resolver's own flags. */
export async function launchResolvedBrowser(extraArgs: string[] = []): Promise<Browser> {
  const resolved = await resolveBrowser();
  return chromium.launch({ executablePath: resolved.executablePath, headless: true, args: [...resolved.args, ...COMMON_ARGS, ...extraArgs] });
}
