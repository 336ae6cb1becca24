import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBrowserWindow, FakeEvent, FakeSession, FakeWebContents, FakeWebFrame, fake, ipcEvent, refusals, resetElectron } from './fakeElectron.ts';

vi.mock('electron', async () => (await import('./fakeElectron.ts')).electron);

const { guardDefaultSession, guardWebContents, installSecurityGuards, isSafeExternalUrl } = await import('../../electron/main/security.ts');
const { isTrustedSender, onTrustedMessage } = await import('../../electron/main/senderCheck.ts');
const { resolveRenderer } = await import('../../electron/main/renderer.ts');

const packaged = resolveRenderer({ isPackaged: true, devServerUrl: 'http://localhost:5173' });
const flush = () => new Promise((resolve) => setImmediate(resolve));

beforeEach(() => resetElectron());

describe('external links', () => {
  it.each(['https://haveibeenpwned.com/', 'http://127.0.0.1:6060/oidc/auth?x=1', 'https://example.com/a#b'])('lets %s go to the browser', (url) => {
    expect(isSafeExternalUrl(url)).toBe(true);
  });

  it.each([
    'javascript:alert(1)',
    'file:///etc/passwd',
    'app://bundle/index.html',
    'ftp://example.com/',
    'mailto:a@example.com',
    'data:text/html,<script>1</script>',
    'smb://server/share',
    'https://user:pw@example.com/',
    'https://',
    'not a url',
    `https://example.com/${'a'.repeat(3000)}`,
  ])('keeps %s away from the OS', (url) => {
    expect(isSafeExternalUrl(url)).toBe(false);
  });

  it('refuses non-strings', () => {
    expect(isSafeExternalUrl(undefined)).toBe(false);
    expect(isSafeExternalUrl({ toString: () => 'https://example.com' })).toBe(false);
  });
});

describe('navigation and window-open guards', () => {
  function guarded(): FakeWebContents {
    const contents = new FakeWebContents(new FakeSession());
    guardWebContents(contents as never, packaged);
    return contents;
  }

  it('lets the page move inside the bundle', () => {
    const contents = guarded();
    expect(contents.navigate('app://bundle/index.html#/breaches').defaultPrevented).toBe(false);
    expect(fake().shell.opened).toEqual([]);
  });

  it('stops navigation to the web and opens http(s) in the system browser', async () => {
    const contents = guarded();
    expect(contents.navigate('https://example.com/help').defaultPrevented).toBe(true);
    await flush();
    expect(fake().shell.opened).toEqual(['https://example.com/help']);
  });

  it.each(['javascript:alert(1)', 'file:///etc/passwd', 'app://other/index.html', 'chrome://settings'])('stops navigation to %s and opens nothing', (url) => {
    const contents = guarded();
    expect(contents.navigate(url).defaultPrevented).toBe(true);
    expect(fake().shell.opened).toEqual([]);
  });

  it('stops redirects away from the bundle', () => {
    const contents = guarded();
    expect(contents.redirect('https://evil.example/').defaultPrevented).toBe(true);
    expect(contents.redirect('app://bundle/index.html').defaultPrevented).toBe(false);
  });

  it('denies every new window, sending only validated http(s) links to the browser', () => {
    const contents = guarded();
    const open = contents.windowOpenHandler!;
    expect(open({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(open({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(open({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(open({ url: 'app://bundle/index.html' })).toEqual({ action: 'deny' });
    expect(fake().shell.opened).toEqual(['https://example.com/']);
  });

  it('refuses to attach webviews', () => {
    const contents = guarded();
    const event = new FakeEvent();
    contents.emit('will-attach-webview', event, {}, {});
    expect(event.defaultPrevented).toBe(true);
  });

  it('trusts the dev server only in an unpackaged run', () => {
    const dev = resolveRenderer({ isPackaged: false, devServerUrl: 'http://localhost:5173' });
    expect(dev.entryUrl).toBe('http://localhost:5173');
    expect(dev.isTrustedUrl('http://localhost:5173/src/main.tsx')).toBe(true);
    expect(packaged.entryUrl).toBe('app://bundle/index.html');
    expect(packaged.isTrustedUrl('http://localhost:5173/')).toBe(false);
    expect(resolveRenderer({ isPackaged: false, devServerUrl: 'http://evil.example:5173' }).isTrustedUrl('http://evil.example:5173/')).toBe(false);
  });
});

describe('permissions', () => {
  it('installs before ready without touching a session, which Electron has not made yet', () => {
    resetElectron({ ready: false });
    installSecurityGuards(packaged);
    expect(refusals).toEqual([]);
    expect(() => fake().session.defaultSession).toThrow('Session can only be received when app is ready');
  });

  it('guards the default session before any window uses it', () => {
    guardDefaultSession(packaged);
    expect(fake().session.defaultSession.permissionCheckHandler!(null, 'geolocation', 'app://bundle', { requestingUrl: 'app://bundle/index.html' })).toBe(false);
  });

  it("lets only the app's own page write to the clipboard (the sign-in link's Copy button)", () => {
    guardDefaultSession(packaged);
    const session = fake().session.defaultSession;
    const callback = vi.fn();
    session.permissionRequestHandler!(null, 'clipboard-sanitized-write', callback, { requestingUrl: 'app://bundle/index.html' });
    session.permissionRequestHandler!(null, 'clipboard-sanitized-write', callback, { requestingUrl: 'https://evil.example/' });
    session.permissionRequestHandler!(null, 'clipboard-read', callback, { requestingUrl: 'app://bundle/index.html' });
    expect(callback.mock.calls).toEqual([[true], [false], [false]]);
    expect(session.permissionCheckHandler!(null, 'clipboard-sanitized-write', 'app://bundle', { requestingUrl: 'app://bundle/' })).toBe(true);
    expect(session.permissionCheckHandler!(null, 'clipboard-sanitized-write', 'https://evil.example', { requestingUrl: 'https://evil.example/' })).toBe(false);
  });

  it('denies every request, check and device permission on the default and every window session', () => {
    installSecurityGuards(packaged);
    guardDefaultSession(packaged);
    const window = new FakeBrowserWindow({});
    for (const session of [fake().session.defaultSession, window.webContents.session]) {
      const callback = vi.fn();
      session.permissionRequestHandler!(window.webContents, 'media', callback, {});
      session.permissionRequestHandler!(window.webContents, 'notifications', callback, {});
      expect(callback.mock.calls).toEqual([[false], [false]]);
      expect(session.permissionCheckHandler!(window.webContents, 'geolocation', 'app://bundle', {})).toBe(false);
      expect(session.devicePermissionHandler!({ deviceType: 'usb' })).toBe(false);
    }
  });

  it('guards web contents created after installation', () => {
    installSecurityGuards(packaged);
    const window = new FakeBrowserWindow({});
    expect(window.webContents.windowOpenHandler).toBeDefined();
    expect(window.webContents.navigate('https://example.com').defaultPrevented).toBe(true);
  });
});

describe('sender check', () => {
  function ownWindow() {
    const window = new FakeBrowserWindow({});
    void window.loadURL('app://bundle/index.html');
    const policy = { isTrustedUrl: packaged.isTrustedUrl, isKnownContents: (contents: unknown) => contents === window.webContents };
    return { window, policy };
  }

  it('accepts the top frame of our window on our page', () => {
    const { window, policy } = ownWindow();
    expect(isTrustedSender(ipcEvent(window.webContents) as never, policy)).toBe(true);
  });

  it('refuses subframes, missing frames, foreign pages and other web contents', () => {
    const { window, policy } = ownWindow();
    const subframe = new FakeWebFrame('app://bundle/frame.html', window.webContents.mainFrame);
    expect(isTrustedSender(ipcEvent(window.webContents, subframe) as never, policy)).toBe(false);
    expect(isTrustedSender(ipcEvent(window.webContents, null) as never, policy)).toBe(false);
    const detached = new FakeWebFrame('app://bundle/index.html');
    expect(isTrustedSender(ipcEvent(window.webContents, detached) as never, policy)).toBe(false);
    window.webContents.mainFrame.url = 'https://evil.example/';
    expect(isTrustedSender(ipcEvent(window.webContents) as never, policy)).toBe(false);
    const other = new FakeBrowserWindow({});
    void other.loadURL('app://bundle/index.html');
    expect(isTrustedSender(ipcEvent(other.webContents) as never, policy)).toBe(false);
  });

  it('refuses a destroyed or detached frame', () => {
    const { window, policy } = ownWindow();
    window.webContents.mainFrame.detached = true;
    expect(isTrustedSender(ipcEvent(window.webContents) as never, policy)).toBe(false);
    window.webContents.mainFrame.detached = false;
    window.webContents.mainFrame.destroyed = true;
    expect(isTrustedSender(ipcEvent(window.webContents) as never, policy)).toBe(false);
  });

  it('runs ipcMain listeners only for trusted senders', () => {
    const { window, policy } = ownWindow();
    const listener = vi.fn();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const stop = onTrustedMessage('core-port-request', policy, listener);
    fake().ipcMain.emit('core-port-request', ipcEvent(window.webContents, new FakeWebFrame('app://bundle/x', window.webContents.mainFrame)));
    expect(listener).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledOnce();
    fake().ipcMain.emit('core-port-request', ipcEvent(window.webContents));
    expect(listener).toHaveBeenCalledOnce();
    stop();
    fake().ipcMain.emit('core-port-request', ipcEvent(window.webContents));
    expect(listener).toHaveBeenCalledOnce();
    warn.mockRestore();
  });
});
