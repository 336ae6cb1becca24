import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { EventBus } from '../../electron/core/events/EventBus.ts';
import { Router, type Handlers } from '../../electron/core/handlers/Router.ts';
import type { HostBridge } from '../../electron/core/host.ts';
import { dataDirFrom, runUtilityHost, type MainPortLike, type ParentPortLike, type RunningCore } from '../../electron/main/utilityHost.ts';
import { FakeMessageChannelMain, type FakeMessagePortMain } from './fakeElectron.ts';

/** `process.parentPort` as the utility process sees it; `deliver` plays the main process. */
class FakeParentPort extends EventEmitter implements ParentPortLike {
  readonly sent: unknown[] = [];
  postMessage(message: unknown): void {
    this.sent.push(structuredClone(message));
  }
  deliver(data: unknown, ports: FakeMessagePortMain[] = []): void {
    this.emit('message', { data, ports: ports as unknown as MainPortLike[] });
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

function harness(options: { startFails?: boolean } = {}) {
  const parentPort = new FakeParentPort();
  const signals: string[] = [];
  const exit = vi.fn();
  let host: HostBridge | undefined;
  let release: () => void = () => {};
  const started = new Promise<void>((resolve) => (release = resolve));
  const bus = new EventBus();
  const close = vi.fn(async () => {});
  const router = new Router({ 'sync-status': () => ({ online: true, phase: 'idle', pending: 0, failed: 0 }) } as unknown as Handlers);
  const startCore = vi.fn(async (input: { dataDir: string; host: HostBridge }): Promise<RunningCore> => {
    host = input.host;
    await started;
    if (options.startFails) throw new Error('database is locked');
    return { router, bus, signal: (signal) => signals.push(signal), close };
  });
  const running = runUtilityHost({ parentPort, argv: ['electron', 'coreEntry.js', '--data-dir', '/data'], startCore, exit });
  return { parentPort, signals, exit, startCore, release, running, bus, close, host: () => host! };
}

/** A renderer's port, connected through the parent port as the main process does it. */
function connect(parentPort: FakeParentPort) {
  const { port1, port2 } = new FakeMessageChannelMain();
  parentPort.deliver({ type: 'connect' }, [port1]);
  const received: unknown[] = [];
  port2.on('message', (event: { data: unknown }) => received.push(event.data));
  port2.start();
  return { renderer: port2, received };
}

describe('utility-process host', () => {
  it('starts the core with the data folder and says when it is ready', async () => {
    const { parentPort, startCore, release, running } = harness();
    expect(startCore).toHaveBeenCalledWith({ dataDir: '/data', host: expect.any(Object) });
    release();
    await running;
    expect(parentPort.sent).toEqual([{ type: 'ready' }]);
  });

  it('serves renderer ports, including those that arrived while the core started', async () => {
    const { parentPort, release, running } = harness();
    const early = connect(parentPort);
    release();
    await running;
    const late = connect(parentPort);
    for (const { renderer } of [early, late]) renderer.postMessage({ type: 'request', id: 1, channel: 'sync-status', args: {} });
    await tick();
    for (const { received } of [early, late]) {
      expect(received).toEqual([{ type: 'response', id: 1, ok: true, result: { online: true, phase: 'idle', pending: 0, failed: 0 } }]);
    }
  });

  it('passes signals to the core, holding early ones', async () => {
    const { parentPort, signals, release, running } = harness();
    parentPort.deliver({ type: 'signal', signal: 'offline' });
    release();
    await running;
    parentPort.deliver({ type: 'signal', signal: 'sync-now' });
    expect(signals).toEqual(['offline', 'sync-now']);
  });

  it('turns a clicked notification into the open-breach event on every port', async () => {
    const { parentPort, release, running } = harness();
    const ui = connect(parentPort);
    parentPort.deliver({ type: 'open-breach', id: 'Adobe' });
    release();
    await running;
    parentPort.deliver({ type: 'open-breach', id: 'LinkedIn' });
    await tick();
    expect(ui.received).toEqual([
      { type: 'event', event: 'open-breach', payload: { id: 'Adobe' } },
      { type: 'event', event: 'open-breach', payload: { id: 'LinkedIn' } },
    ]);
  });

  it('stops serving a port once it closes', async () => {
    const { parentPort, release, running, bus } = harness();
    release();
    await running;
    const ui = connect(parentPort);
    ui.renderer.close();
    expect(() => bus.emit('data-changed', { reason: 'sync', revision: 1 })).not.toThrow();
    expect(ui.received).toEqual([]);
  });

  it('implements the host bridge with requests the main process answers', async () => {
    const { parentPort, host, release, running } = harness();
    release();
    await running;
    const opened = host().openExternal('https://idp.example/authorize');
    expect(parentPort.sent.at(-1)).toEqual({ type: 'open-external', id: 1, url: 'https://idp.example/authorize' });
    parentPort.deliver({ type: 'reply', id: 1, ok: true });
    await expect(opened).resolves.toBeUndefined();

    const encrypted = host().cipher!.encrypt('secret');
    parentPort.deliver({ type: 'reply', id: 2, ok: true, value: Buffer.from('sealed').toString('base64') });
    expect(Buffer.from(await encrypted).toString()).toBe('sealed');

    const decrypted = host().cipher!.decrypt(new Uint8Array(Buffer.from('sealed')));
    expect(parentPort.sent.at(-1)).toEqual({ type: 'decrypt', id: 3, ciphertext: Buffer.from('sealed').toString('base64') });
    parentPort.deliver({ type: 'reply', id: 3, ok: false, error: 'keyring locked' });
    await expect(decrypted).rejects.toThrow('keyring locked');

    const available = host().cipher!.isAvailable();
    parentPort.deliver({ type: 'reply', id: 4, ok: true, value: false });
    await expect(available).resolves.toBe(false);

    host().notify({ kind: 'sign-in-needed', title: 'Sign in', body: '' });
    host().setTrayState({ unresolved: 1, signInNeeded: false, notificationsPaused: false, syncing: false });
    host().applyShellSettings!({ startAtLogin: true, closeToTray: true });
    expect(parentPort.sent.slice(-3)).toEqual([
      { type: 'notify', notification: { kind: 'sign-in-needed', title: 'Sign in', body: '' } },
      { type: 'tray', state: { unresolved: 1, signInNeeded: false, notificationsPaused: false, syncing: false } },
      { type: 'settings', startAtLogin: true, closeToTray: true },
    ]);
  });

  it('closes the core and exits on shutdown', async () => {
    const { parentPort, release, running, close, exit } = harness();
    release();
    await running;
    parentPort.deliver({ type: 'shutdown' });
    await tick();
    expect(close).toHaveBeenCalledOnce();
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('exits with an error when the core cannot start, so the main process restarts it', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { release, running, exit, parentPort } = harness({ startFails: true });
    release();
    await running;
    expect(exit).toHaveBeenCalledWith(1);
    expect(parentPort.sent).toEqual([]);
    error.mockRestore();
  });

  it('ignores malformed messages from the main process', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { parentPort, signals, release, running } = harness();
    release();
    await running;
    parentPort.deliver({ type: 'signal', signal: 'self-destruct' });
    parentPort.deliver('junk');
    expect(signals).toEqual([]);
    expect(error).toHaveBeenCalledTimes(2);
    error.mockRestore();
  });

  it('needs a data folder', () => {
    expect(dataDirFrom(['x', '--data-dir', '/d'])).toBe('/d');
    expect(() => dataDirFrom(['x'])).toThrow(/--data-dir/);
  });
});
