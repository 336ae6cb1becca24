import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type BuiltApp } from './builtApp.ts';
import * as electron from './fakeElectron.ts';

// The built main bundle (`out/main/index.js`, as `npm run build` makes it and the package ships
// it), started against the strict fake: every call Electron 45 would refuse throws there, and
// `refusals` also catches one that the app swallowed. The core's utility process really runs
// (`out/main/coreEntry.js` in a Node child with Electron's `process.parentPort`).

let app: BuiltApp;
let dir: string;
beforeAll(async () => {
  app = await buildApp();
  dir = mkdtempSync(path.join(os.tmpdir(), 'main-bundle-'));
}, 60_000);
afterAll(() => {
  app?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Polls until `check` passes; fails with `what` after a few seconds. */
async function until(what: string, check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the built main bundle on a strict Electron', () => {
  it('starts, shows the window, runs the core until ready, and quits cleanly', async () => {
    vi.resetModules();
    vi.doMock('electron', () => electron.electron);
    const state = electron.resetElectron({ ready: false });
    electron.FakeUtilityProcess.runReal = true;
    state.app.paths = { userData: path.join(dir, 'userData'), logs: path.join(dir, 'logs') };
    state.app.appPath = app.dir;

    // Module load: what runs before `ready`.
    await import(pathToFileURL(path.join(app.dir, 'out', 'main', 'index.js')).href);
    expect(electron.refusals).toEqual([]);
    expect(state.protocol.privileged.map((entry) => entry.scheme)).toEqual(['app']);

    state.app.ready();
    await until('the window is shown', () => electron.FakeBrowserWindow.instances[0]?.isVisible() === true);
    const window = electron.FakeBrowserWindow.instances[0]!;
    expect(window.webContents.mainFrame.url).toBe('app://bundle/index.html');
    const page = await state.protocol.handlers.get('app')!(new Request('app://bundle/index.html'));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    expect(window.options.webPreferences).toMatchObject({ preload: path.join(app.dir, 'out', 'preload', 'index.cjs'), sandbox: true, contextIsolation: true });
    expect(electron.FakeTray.instances).toHaveLength(1);

    const core = electron.FakeUtilityProcess.instances[0]!;
    expect(core.child?.pid).toBeGreaterThan(0);
    expect(core.modulePath).toBe(path.join(app.dir, 'out', 'main', 'coreEntry.js'));
    await until('the core reports ready', () => core.received.some((message) => (message as { type?: string }).type === 'ready'));

    // Closing the window only hides it (close to tray); quitting really ends the app.
    window.close();
    expect(window.isDestroyed()).toBe(false);
    state.app.quit();
    await until('the app has quit', () => state.app.quitted);
    expect(core.exited).toBe(true);
    expect(core.killed).toBe(false);
    expect(window.isDestroyed()).toBe(true);
    expect(electron.refusals).toEqual([]);
    expect(readFileSync(path.join(dir, 'logs', 'core.log'), 'utf8')).not.toMatch(/could not start|Error/);
  }, 60_000);
});
