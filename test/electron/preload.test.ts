import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHANNEL_NAMES } from '../../shared/ipc/contract.ts';
import type { MonitorApi } from '../../shared/ipc/monitorApi.ts';
import { fake, refusals, resetElectron } from './fakeElectron.ts';
import { eventually } from '../support/waitFor.ts';

vi.mock('electron', async () => (await import('./fakeElectron.ts')).electron);

const { createMonitorClient } = await import('../../electron/preload/monitorClient.ts');
type WebPort = Parameters<ReturnType<typeof createMonitorClient>['adoptPort']>[0];

const open: MessagePort[] = [];
afterEach(() => {
  for (const port of open.splice(0)) port.close();
});

/** A port pair: the preload's end and the core's end, which answers as the test says. */
function channel() {
  const { port1, port2 } = new MessageChannel();
  open.push(port1, port2);
  const received: { type: string; id: number; channel: string; args: unknown }[] = [];
  port2.on('message', (message) => void (isMarker(message) || received.push(message)));
  return { preloadEnd: port1 as unknown as WebPort, preloadPort: port1, coreEnd: port2, received };
}

let markers = 0;
const isMarker = (message: unknown) => typeof message === 'string' && message.startsWith('drained-');

/**
 * Resolves once every message `from` posted before this call has been handled at `to`: a port
 * delivers in order, so a marker posted now arrives after them (no waiting for a fixed time).
 */
function drained(from: MessagePort, to: MessagePort): Promise<void> {
  const marker = `drained-${++markers}`;
  return new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      if (message !== marker) return;
      to.off('message', onMessage);
      resolve();
    };
    to.on('message', onMessage);
    from.postMessage(marker);
  });
}

function client() {
  const requestPort = vi.fn();
  return { ...createMonitorClient({ requestPort }), requestPort };
}

describe('preload entry', () => {
  it('exposes window.monitor with invoke, on and pathForFile only, and asks for a port on load', async () => {
    resetElectron();
    await import('../../electron/preload/index.ts');
    const { contextBridge, ipcRenderer } = fake();
    expect([...contextBridge.exposed.keys()]).toEqual(['monitor']);
    const monitor = contextBridge.exposed.get('monitor') as MonitorApi;
    expect(Object.keys(monitor).sort()).toEqual(['invoke', 'on', 'pathForFile']);
    expect(Object.values(monitor).every((value) => typeof value === 'function')).toBe(true);
    expect(ipcRenderer.sent).toEqual([{ channel: 'core-port-request', args: [] }]);

    const pending = monitor.invoke('sync-status', {});
    const { preloadEnd, coreEnd, received } = channel();
    ipcRenderer.deliver('core-port', [preloadEnd]);
    await eventually('the queued call to reach the core', () => received.length === 1);
    expect(received).toEqual([{ type: 'request', id: 1, channel: 'sync-status', args: {} }]);
    coreEnd.postMessage({ type: 'response', id: 1, ok: true, result: { online: true, phase: 'idle', pending: 0, failed: 0 } });
    await expect(pending).resolves.toEqual({ online: true, phase: 'idle', pending: 0, failed: 0 });
  });
});

describe('pathForFile', () => {
  it('answers where a chosen file is through webUtils, empty for a file made in the page, and refuses what is not a file', async () => {
    resetElectron();
    vi.resetModules();
    await import('../../electron/preload/index.ts');
    const { contextBridge, webUtils } = fake();
    const monitor = contextBridge.exposed.get('monitor') as Required<MonitorApi>;
    const chosen = webUtils.choose(new File(['never read'], 'passwords.csv', { type: 'text/csv' }), '/home/sam/Downloads/passwords.csv');
    expect(monitor.pathForFile(chosen)).toBe('/home/sam/Downloads/passwords.csv');
    expect(monitor.pathForFile(new File(['made here'], 'passwords.csv'))).toBe('');
    expect(() => monitor.pathForFile('/etc/passwd' as unknown as File)).toThrow(
      expect.objectContaining({ name: 'TypeError', message: 'getPathForFile expected to receive a File object but one was not provided' }),
    );
    expect(refusals.map((refusal) => refusal.rule)).toEqual(['webUtils.getPathForFile']);
  });
});

describe('invoke', () => {
  it('refuses unknown channels without sending anything', async () => {
    const { api, adoptPort } = client();
    const { preloadEnd, preloadPort, coreEnd, received } = channel();
    adoptPort(preloadEnd);
    for (const name of ['nope', '__proto__', 'constructor', 'toString', '']) {
      await expect(api.invoke(name as never, {} as never)).rejects.toEqual({ code: 'unknown-channel', message: `no channel named "${name}"` });
    }
    await drained(preloadPort, coreEnd);
    expect(received).toEqual([]);
    expect(CHANNEL_NAMES).toContain('breaches-list');
  });

  it('queues calls until the port arrives, then pairs each response with its call', async () => {
    const { api, adoptPort } = client();
    const first = api.invoke('breach-get', { id: 'Adobe' });
    const second = api.invoke('settings-get', {});
    const { preloadEnd, coreEnd, received } = channel();
    adoptPort(preloadEnd);
    await eventually('both queued calls to reach the core', () => received.length === 2);
    expect(received.map((message) => [message.id, message.channel])).toEqual([
      [1, 'breach-get'],
      [2, 'settings-get'],
    ]);
    coreEnd.postMessage({ type: 'response', id: 2, ok: true, result: 'settings' });
    coreEnd.postMessage({ type: 'response', id: 1, ok: false, error: { code: 'not-found', message: 'no breach Adobe' } });
    await expect(second).resolves.toBe('settings');
    await expect(first).rejects.toEqual({ code: 'not-found', message: 'no breach Adobe' });
  });

  it('ignores responses nobody asked for and rejects arguments that cannot be sent', async () => {
    const { api, adoptPort } = client();
    const { preloadEnd, coreEnd } = channel();
    adoptPort(preloadEnd);
    coreEnd.postMessage({ type: 'response', id: 99, ok: true, result: 1 });
    coreEnd.postMessage('garbage');
    await expect(api.invoke('breach-get', { id: (() => 'x') as never })).rejects.toMatchObject({ code: 'invalid-arguments' });
  });

  it('rejects calls in flight when the core restarts, and sends later calls on the new port', async () => {
    const { api, adoptPort } = client();
    const old = channel();
    adoptPort(old.preloadEnd);
    const lost = api.invoke('sync-now', {});
    await eventually('the call to reach the first core', () => old.received.length === 1);
    const fresh = channel();
    adoptPort(fresh.preloadEnd);
    await expect(lost).rejects.toEqual({ code: 'unavailable', message: expect.stringContaining('restarted') });
    const next = api.invoke('sync-status', {});
    await eventually('the later call to reach the new core', () => fresh.received.length === 1);
    expect(fresh.received.map((message) => message.channel)).toEqual(['sync-status']);
    fresh.coreEnd.postMessage({ type: 'response', id: 2, ok: true, result: 'ok' });
    await expect(next).resolves.toBe('ok');
  });

  it('rejects calls in flight and asks for a new port when the port closes', async () => {
    const { api, adoptPort, requestPort } = client();
    const { preloadEnd, coreEnd, received } = channel();
    adoptPort(preloadEnd);
    const lost = api.invoke('sync-now', {});
    await eventually('the call to reach the core', () => received.length === 1);
    coreEnd.close();
    await expect(lost).rejects.toMatchObject({ code: 'unavailable' });
    expect(requestPort).toHaveBeenCalledOnce();
  });
});

describe('on', () => {
  it('allows only contract events', () => {
    const { api } = client();
    expect(() => api.on('nope' as never, () => {})).toThrow(TypeError);
    expect(() => api.on('hasOwnProperty' as never, () => {})).toThrow(TypeError);
    expect(() => api.on('sync-changed', 'not a function' as never)).toThrow(TypeError);
  });

  it('delivers contract events to their listeners until they unsubscribe, and drops others', async () => {
    const { api, adoptPort } = client();
    const { preloadEnd, preloadPort, coreEnd } = channel();
    adoptPort(preloadEnd);
    const changes: unknown[] = [];
    const stop = api.on('data-changed', (payload) => changes.push(payload));
    coreEnd.postMessage({ type: 'event', event: 'data-changed', payload: { reason: 'sync' } });
    coreEnd.postMessage({ type: 'event', event: 'not-an-event', payload: {} });
    await drained(coreEnd, preloadPort);
    expect(changes).toEqual([{ reason: 'sync' }]);
    stop();
    coreEnd.postMessage({ type: 'event', event: 'data-changed', payload: { reason: 'outbox' } });
    await drained(coreEnd, preloadPort);
    expect(changes).toHaveLength(1);
  });

  it('keeps an open-breach that arrives before anyone listens for the first listener', async () => {
    const { api, adoptPort } = client();
    const { preloadEnd, preloadPort, coreEnd } = channel();
    adoptPort(preloadEnd);
    coreEnd.postMessage({ type: 'event', event: 'open-breach', payload: { id: 'Adobe' } });
    coreEnd.postMessage({ type: 'event', event: 'data-changed', payload: { reason: 'sync' } });
    await drained(coreEnd, preloadPort);
    const opened: unknown[] = [];
    const changed: unknown[] = [];
    api.on('open-breach', (payload) => opened.push(payload));
    api.on('data-changed', (payload) => changed.push(payload));
    api.on('open-breach', (payload) => opened.push(payload));
    await eventually('the kept open-breach to reach its first listener', () => opened.length >= 1);
    expect(opened).toEqual([{ id: 'Adobe' }]);
    expect(changed).toEqual([]);
  });

  it('keeps going when one listener throws', async () => {
    const { api, adoptPort } = client();
    const { preloadEnd, preloadPort, coreEnd } = channel();
    adoptPort(preloadEnd);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const heard = vi.fn();
    api.on('sync-changed', () => {
      throw new Error('broken view');
    });
    api.on('sync-changed', heard);
    coreEnd.postMessage({ type: 'event', event: 'sync-changed', payload: {} });
    await drained(coreEnd, preloadPort);
    expect(heard).toHaveBeenCalledOnce();
    expect(error).toHaveBeenCalledOnce();
    error.mockRestore();
  });
});
