import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as electron from './fakeElectron.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/**
 * Loads the main entry afresh against a fresh fake Electron, as `electron .` would. The fake
 * itself stays one module: the mocked 'electron' keeps pointing at it across module resets.
 */
async function boot(singleInstance: boolean) {
  vi.resetModules();
  vi.doMock('electron', () => electron.electron);
  const state = electron.resetElectron({ ready: false });
  dir = mkdtempSync(path.join(os.tmpdir(), 'main-entry-'));
  state.app.paths = { userData: path.join(dir, 'userData'), logs: path.join(dir, 'logs') };
  state.app.appPath = dir;
  state.app.singleInstance = singleInstance;
  await import('../../electron/main/index.ts');
  return electron;
}

describe('main entry', () => {
  it('registers app:// and the web-contents guard before the app is ready, touching no session', async () => {
    const { fake, refusals } = await boot(true);
    expect(fake().protocol.privileged.map((entry) => entry.scheme)).toEqual(['app']);
    expect(fake().app.listenerCount('web-contents-created')).toBe(1);
    expect(fake().protocol.handlers.size).toBe(0);
    expect(refusals).toEqual([]);
  });

  it('guards the default session once ready, before the window exists', async () => {
    const { fake, FakeBrowserWindow, FakeUtilityProcess, refusals } = await boot(true);
    fake().app.ready();
    await vi.waitFor(() => expect(FakeBrowserWindow.instances).toHaveLength(1));
    const session = fake().session.defaultSession;
    expect(session.permissionRequestHandler).toBeDefined();
    expect(session.permissionCheckHandler?.()).toBe(false);
    expect(refusals).toEqual([]);
    FakeUtilityProcess.instances[0]!.exit(0);
  });

  it('starts the shell once ready', async () => {
    const { fake, FakeBrowserWindow, FakeUtilityProcess } = await boot(true);
    fake().app.ready();
    await vi.waitFor(() => expect(FakeBrowserWindow.instances).toHaveLength(1));
    expect(fake().protocol.handlers.has('app')).toBe(true);
    expect(FakeBrowserWindow.instances[0]!.webContents.windowOpenHandler).toBeDefined();
    expect(FakeUtilityProcess.instances[0]!.modulePath).toMatch(/coreEntry\.js$/);
    FakeUtilityProcess.instances[0]!.exit(0);
    fake().app.quit();
  });

  it('quits at once when another instance holds the lock', async () => {
    const { fake, FakeBrowserWindow, FakeUtilityProcess } = await boot(false);
    expect(fake().app.quitCalls).toBe(1);
    fake().app.ready();
    await new Promise((resolve) => setImmediate(resolve));
    expect(FakeBrowserWindow.instances).toEqual([]);
    expect(FakeUtilityProcess.instances).toEqual([]);
  });
});
