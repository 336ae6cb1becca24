import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HostToCore } from '../../shared/ipc/host.ts';
import { FakeSession, FakeUtilityProcess, FakeWebContents, fake, resetElectron, type FakeMessagePortMain } from './fakeElectron.ts';

vi.mock('electron', async () => (await import('./fakeElectron.ts')).electron);

const { CORE_SERVICE_NAME, startCoreProcess } = await import('../../electron/main/coreProcess.ts');
const { createHostRequestHandler } = await import('../../electron/main/hostRequests.ts');

let dir: string;
const running: { stop(timeoutMs?: number): Promise<void> }[] = [];
beforeEach(() => {
  resetElectron();
  dir = mkdtempSync(path.join(os.tmpdir(), 'core-process-'));
});
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(running.splice(0).map((core) => core.stop(0)));
  rmSync(dir, { recursive: true, force: true });
});

const backoff = { initialMs: 1_000, maxMs: 4_000, resetAfterMs: 60_000 };

function start(handleMessage: (message: unknown) => Promise<HostToCore | undefined> = vi.fn(async () => undefined), now?: () => number) {
  const core = startCoreProcess({ entryPath: '/app/out/main/coreEntry.js', dataDir: '/data', logPath: path.join(dir, 'logs', 'core.log'), handleMessage, backoff, ...(now ? { now } : {}) });
  running.push(core);
  return { core, handleMessage, child: () => FakeUtilityProcess.instances.at(-1)! };
}

describe('core utility process', () => {
  it('forks the core entry with its data folder, a service name and piped output', () => {
    const { child } = start();
    expect(child().modulePath).toBe('/app/out/main/coreEntry.js');
    expect(child().args).toEqual(['--data-dir', '/data']);
    expect(child().options).toEqual({ serviceName: CORE_SERVICE_NAME, stdio: 'pipe' });
  });

  it("writes the core's output to its log", async () => {
    const { core, child } = start();
    child().stdout.write('core says hello\n');
    child().stderr.write('core warns\n');
    await core.stop(10);
    const log = readFileSync(path.join(dir, 'logs', 'core.log'), 'utf8');
    expect(log).toContain('core says hello');
    expect(log).toContain('core warns');
  });

  it('hands a renderer one end of a fresh channel and the core the other', async () => {
    const { core, child } = start();
    const contents = new FakeWebContents(new FakeSession());
    core.connect(contents as never);
    const { message, transfer } = child().posted[0]!;
    expect(message).toEqual({ type: 'connect' });
    const [delivered] = contents.posted;
    expect(delivered!.channel).toBe('core-port');
    const corePort = transfer[0]! as FakeMessagePortMain;
    const rendererPort = delivered!.ports[0]!;
    expect(corePort.other).toBe(rendererPort);
    const heard = vi.fn();
    corePort.on('message', heard);
    corePort.start();
    rendererPort.postMessage({ type: 'request', id: 1, channel: 'sync-status', args: {} });
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard).toHaveBeenCalledWith({ data: { type: 'request', id: 1, channel: 'sync-status', args: {} }, ports: [] });
  });

  it('answers the core through the handler and posts the reply back', async () => {
    const { child } = start(vi.fn(async (message: unknown) => ({ type: 'reply' as const, id: (message as { id: number }).id, ok: true, value: 'yes' })));
    child().send({ type: 'cipher-available', id: 7 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(child().messages('reply')).toEqual([{ type: 'reply', id: 7, ok: true, value: 'yes' }]);
  });

  it('sends signals and open-breach, keeping open-breach while the core is down', () => {
    vi.useFakeTimers();
    const { core, child } = start();
    core.signal('resume');
    core.openBreach('Adobe');
    expect(child().posted.map((entry) => entry.message)).toEqual([
      { type: 'signal', signal: 'resume' },
      { type: 'open-breach', id: 'Adobe' },
    ]);
    child().exit(1);
    core.signal('online');
    core.openBreach('LinkedIn');
    vi.advanceTimersByTime(backoff.initialMs);
    expect(child().posted.map((entry) => entry.message)).toEqual([{ type: 'open-breach', id: 'LinkedIn' }]);
  });

  it('restarts after a crash with capped exponential backoff and reconnects every live renderer', async () => {
    vi.useFakeTimers();
    let clock = 0;
    const { core, child } = start(undefined, () => clock);
    const live = new FakeWebContents(new FakeSession());
    const gone = new FakeWebContents(new FakeSession());
    core.connect(live as never);
    core.connect(gone as never);
    gone.destroy();
    const delays: number[] = [];
    for (let crash = 0; crash < 5; crash++) {
      const before = FakeUtilityProcess.instances.length;
      child().exit(1);
      let waited = 0;
      while (FakeUtilityProcess.instances.length === before) {
        await vi.advanceTimersByTimeAsync(250);
        waited += 250;
      }
      delays.push(waited);
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 4_000, 4_000]);
    expect(FakeUtilityProcess.instances).toHaveLength(6);
    expect(live.posted.filter((entry) => entry.channel === 'core-port')).toHaveLength(6);
    expect(gone.posted).toHaveLength(1);
    expect(child().messages('connect')).toHaveLength(1);
    // A core that stayed up a while starts again from the shortest delay.
    clock += backoff.resetAfterMs;
    child().exit(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(FakeUtilityProcess.instances).toHaveLength(7);
  });

  it('stops by asking the core to shut down, killing it if it does not exit, and never restarts', async () => {
    vi.useFakeTimers();
    const { core, child } = start();
    const first = child();
    const stopped = core.stop(3_000);
    expect(first.messages('shutdown')).toEqual([{ type: 'shutdown' }]);
    vi.advanceTimersByTime(3_000);
    await stopped;
    expect(first.killed).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(FakeUtilityProcess.instances).toHaveLength(1);
  });

  it('stops without a kill when the core exits on its own', async () => {
    const { core, child } = start();
    const stopped = core.stop(3_000);
    child().exit(0);
    await stopped;
    expect(child().killed).toBe(false);
  });
});

describe('host requests from the core', () => {
  function handler(platform: NodeJS.Platform = 'linux') {
    const actions = { notify: vi.fn(), setTray: vi.fn(), applySettings: vi.fn(), onReady: vi.fn(), savePdf: vi.fn(async (fileName: string) => ({ file: `/home/alice/Documents/${fileName}` })) };
    return { handle: createHostRequestHandler(actions, platform), actions };
  }

  it('opens validated http(s) URLs in the browser and refuses the rest', async () => {
    const { handle } = handler();
    await expect(handle({ type: 'open-external', id: 1, url: 'http://127.0.0.1:6060/oidc/auth?client_id=x' })).resolves.toEqual({ type: 'reply', id: 1, ok: true });
    await expect(handle({ type: 'open-external', id: 2, url: 'file:///etc/passwd' })).resolves.toMatchObject({ id: 2, ok: false });
    await expect(handle({ type: 'open-external', id: 3, url: 'javascript:alert(1)' })).resolves.toMatchObject({ id: 3, ok: false });
    expect(fake().shell.opened).toEqual(['http://127.0.0.1:6060/oidc/auth?client_id=x']);
  });

  it('encrypts and decrypts with safeStorage, base64 over the wire', async () => {
    const { handle } = handler();
    const encrypted = await handle({ type: 'encrypt', id: 1, plaintext: 'refresh-token' });
    expect(encrypted).toMatchObject({ id: 1, ok: true });
    const ciphertext = (encrypted as { value: string }).value;
    expect(Buffer.from(ciphertext, 'base64').toString()).not.toContain('refresh-token');
    await expect(handle({ type: 'decrypt', id: 2, ciphertext })).resolves.toEqual({ type: 'reply', id: 2, ok: true, value: 'refresh-token' });
    await expect(handle({ type: 'decrypt', id: 3, ciphertext: Buffer.from('junk').toString('base64') })).resolves.toMatchObject({ id: 3, ok: false });
  });

  it('reports no cipher where safeStorage would use a hard-coded key', async () => {
    const { handle } = handler('linux');
    await expect(handle({ type: 'cipher-available', id: 1 })).resolves.toMatchObject({ value: true });
    fake().safeStorage.backend = 'basic_text';
    await expect(handle({ type: 'cipher-available', id: 2 })).resolves.toMatchObject({ value: false });
    await expect(handler('darwin').handle({ type: 'cipher-available', id: 3 })).resolves.toMatchObject({ value: true });
    fake().safeStorage.available = false;
    await expect(handler('darwin').handle({ type: 'cipher-available', id: 4 })).resolves.toMatchObject({ value: false });
  });

  it('passes notifications, tray state, settings and readiness to the shell', async () => {
    const { handle, actions } = handler();
    const notification = { kind: 'sign-in-needed', title: 'Sign in', body: 'again' };
    const state = { unresolved: 2, signInNeeded: false, notificationsPaused: false, syncing: false };
    await expect(handle({ type: 'notify', notification })).resolves.toBeUndefined();
    await handle({ type: 'tray', state });
    await handle({ type: 'settings', startAtLogin: true, closeToTray: false });
    await handle({ type: 'ready' });
    expect(actions.notify).toHaveBeenCalledWith(notification);
    expect(actions.setTray).toHaveBeenCalledWith(state);
    expect(actions.applySettings).toHaveBeenCalledWith({ startAtLogin: true, closeToTray: false });
    expect(actions.onReady).toHaveBeenCalledOnce();
  });

  it('asks the shell to save a PDF and answers with where it went; a path for a name never reaches it', async () => {
    const { handle, actions } = handler();
    await expect(handle({ type: 'save-pdf', id: 7, fileName: 'breach-monitor-report-2026-11-24.pdf' })).resolves.toEqual({
      type: 'reply',
      id: 7,
      ok: true,
      value: { file: '/home/alice/Documents/breach-monitor-report-2026-11-24.pdf' },
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(handle({ type: 'save-pdf', id: 8, fileName: '../../.bashrc.pdf' })).resolves.toEqual({ type: 'reply', id: 8, ok: false, error: 'malformed request' });
    warn.mockRestore();
    actions.savePdf.mockRejectedValueOnce(new Error('EACCES: permission denied'));
    await expect(handle({ type: 'save-pdf', id: 9, fileName: 'report.pdf' })).resolves.toEqual({ type: 'reply', id: 9, ok: false, error: 'EACCES: permission denied' });
    expect(actions.savePdf).toHaveBeenCalledTimes(2);
  });

  it('drops malformed messages, answering those with an id', async () => {
    const { handle, actions } = handler();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(handle({ type: 'notify', notification: { kind: 'spam', title: '', body: '' } })).resolves.toBeUndefined();
    await expect(handle({ type: 'launch-missiles', id: 4 })).resolves.toEqual({ type: 'reply', id: 4, ok: false, error: 'malformed request' });
    await expect(handle('nonsense')).resolves.toBeUndefined();
    expect(actions.notify).not.toHaveBeenCalled();
    warn.mockRestore();
  });
});
