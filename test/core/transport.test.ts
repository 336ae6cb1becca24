// The core's router over a MessagePort: the transport Electron uses (MessagePortMain behaves
// like Node's MessagePort here), including senders that post garbage.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type Core } from '../../electron/core/app.ts';
import { createBrowserHostBridge } from '../../electron/browser-host/browserHostBridge.ts';
import { nodePort, servePort } from '../../electron/core/transport/PortTransport.ts';

function nextMessage(port: MessagePort, predicate: (message: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const listener = (message: Record<string, unknown>) => {
      if (!predicate(message)) return;
      port.off('message', listener);
      resolve(message);
    };
    port.on('message', listener);
  });
}

describe('core over a MessagePort', () => {
  let dir: string;
  let core: Core;
  let ui: MessagePort;
  let stop: () => void;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'bm-port-'));
    core = await startCore({ dataDir: dir, keychain: false, host: createBrowserHostBridge({ log: () => {} }) });
    const channel = new MessageChannel();
    stop = servePort(nodePort(channel.port1), core.router, core.bus);
    ui = channel.port2;
  });

  afterAll(async () => {
    stop();
    ui.close();
    await core.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a request with its id', async () => {
    const reply = nextMessage(ui, (m) => m.type === 'response' && m.id === 'a1');
    ui.postMessage({ type: 'request', id: 'a1', channel: 'auth-status', args: {} });
    expect(await reply).toMatchObject({ ok: true, result: { state: 'signed-out' } });
  });

  it.each([
    ['a string', 'hello'],
    ['null', null],
    ['a request without a channel', { type: 'request', id: 5 }],
    ['an object with extra keys', { type: 'request', id: 6, channel: 'auth-status', args: {}, evil: true }],
  ])('rejects %s with a clear error and keeps running', async (_name, message) => {
    const reply = nextMessage(ui, (m) => m.type === 'response' && m.ok === false);
    ui.postMessage(message);
    expect(await reply).toMatchObject({ ok: false, error: { code: 'malformed-message', message: expect.stringContaining('not a request') } });
    const alive = nextMessage(ui, (m) => m.type === 'response' && m.id === 99);
    ui.postMessage({ type: 'request', id: 99, channel: 'sync-status', args: {} });
    expect(await alive).toMatchObject({ ok: true });
  });

  it('names the argument that is wrong', async () => {
    const reply = nextMessage(ui, (m) => m.type === 'response' && m.id === 12);
    ui.postMessage({ type: 'request', id: 12, channel: 'breach-get', args: { id: 42 } });
    expect(await reply).toMatchObject({ ok: false, error: { code: 'invalid-arguments', issues: [{ path: 'id' }] } });
  });

  it('pushes core events to the port', async () => {
    const event = nextMessage(ui, (m) => m.type === 'event' && m.event === 'sync-changed');
    core.signal('offline');
    expect(await event).toMatchObject({ payload: { online: false } });
  });
});
