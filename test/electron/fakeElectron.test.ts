import { describe, expect, it } from 'vitest';
import { electron, FakeMessageChannelMain, FakeUtilityProcess, refusals, resetElectron } from './fakeElectron.ts';

// The strict fake's own rules (docs/shell.md, "The strict fake"): what Electron 45 refuses, the
// fake refuses with Electron's words; what it allows after ready, the fake allows.

describe('the strict fake, before ready', () => {
  it.each([
    ['session', () => electron.session.defaultSession, 'Session can only be received when app is ready'],
    ['BrowserWindow', () => new electron.BrowserWindow({}), 'Cannot create BrowserWindow before app is ready'],
    ['Tray', () => new electron.Tray(electron.nativeImage.createFromPath('/tray.png')), 'Cannot create Tray before app is ready'],
    ['Notification', () => new electron.Notification({ title: 't', body: 'b' }), 'Cannot create Notification before app is ready'],
    ['screen', () => electron.screen.getAllDisplays(), "The 'screen' module can't be used before the app 'ready' event"],
    ['protocol.handle', () => electron.protocol.handle('app', () => Promise.resolve(new Response())), 'Session can only be received when app is ready'],
    ['utilityProcess.fork', () => electron.utilityProcess.fork('/entry.js'), 'utilityProcess cannot be created before app is ready.'],
    ['safeStorage.encryptString', () => electron.safeStorage.encryptString('x'), 'safeStorage cannot be used before app is ready'],
  ])('refuses %s', (_name, call, message) => {
    resetElectron({ ready: false });
    expect(call).toThrow(message);
    expect(refusals).toHaveLength(1);
  });

  it('answers safeStorage as Electron does on Linux: unavailable, backend unknown', () => {
    resetElectron({ ready: false });
    expect(electron.safeStorage.isEncryptionAvailable()).toBe(false);
    expect(electron.safeStorage.getSelectedStorageBackend()).toBe('unknown');
  });

  it('accepts registerSchemesAsPrivileged once, and only before ready', () => {
    resetElectron({ ready: false });
    electron.protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true } }]);
    expect(() => electron.protocol.registerSchemesAsPrivileged([{ scheme: 'other', privileges: {} }])).toThrow('can be called only once');
    resetElectron();
    expect(() => electron.protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: {} }])).toThrow('protocol.registerSchemesAsPrivileged should be called before app is ready');
  });
});

describe('the strict fake, once ready', () => {
  it('allows what Electron allows after ready', () => {
    resetElectron();
    expect(() => new electron.BrowserWindow({})).not.toThrow();
    expect(electron.screen.getAllDisplays()).toHaveLength(1);
    expect(electron.safeStorage.decryptString(electron.safeStorage.encryptString('secret'))).toBe('secret');
    expect(refusals).toEqual([]);
  });

  it('refuses a listener for an event the class does not have', () => {
    resetElectron();
    expect(() => electron.app.on('window-all-close', () => {})).toThrow("App has no event 'window-all-close'");
    expect(() => new electron.BrowserWindow({}).on('ready-to-show', () => {})).not.toThrow();
    expect(() => new electron.BrowserWindow({}).webContents.on('will-navigate', () => {})).not.toThrow();
  });

  it('refuses handling a scheme twice', () => {
    resetElectron();
    electron.protocol.handle('app', () => Promise.resolve(new Response()));
    expect(() => electron.protocol.handle('app', () => Promise.resolve(new Response()))).toThrow('Failed to register protocol: app');
  });

  it('closes message ports like Electron: this end at once, the other end later', async () => {
    resetElectron();
    const { port1, port2 } = new FakeMessageChannelMain();
    const closed: string[] = [];
    port1.on('close', () => closed.push('port1'));
    port2.on('close', () => closed.push('port2'));
    port1.close();
    expect(closed).toEqual(['port1']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toEqual(['port1', 'port2']);
    expect(() => port1.postMessage('dropped')).not.toThrow();
    const { port1: other } = new FakeMessageChannelMain();
    expect(() => other.postMessage('x', [other])).toThrow('Port at index 0 contains the source port.');
  });

  it('drops messages to an exited utility process and reports kill() false', () => {
    resetElectron();
    const child = FakeUtilityProcess.fork('/entry.js', [], { serviceName: 'core' });
    child.exit(0);
    expect(() => child.postMessage({ type: 'late' })).not.toThrow();
    expect(child.posted).toEqual([]);
    expect(child.kill()).toBe(false);
  });

  it('quits like Electron: a window that refuses to close cancels the quit', () => {
    resetElectron();
    const window = new electron.BrowserWindow({});
    window.on('close', (event: { preventDefault(): void }) => event.preventDefault());
    electron.app.quit();
    expect(electron.app.quitted).toBe(false);
    window.removeAllListeners('close');
    electron.app.quit();
    expect(electron.app.quitted).toBe(true);
  });
});
