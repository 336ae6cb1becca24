import type { HostBridge } from '../core/host.ts';
import type { EventBus } from '../core/events/EventBus.ts';
import type { Router } from '../core/handlers/Router.ts';
import { servePort, type PortLike } from '../core/transport/PortTransport.ts';
import { HostToCore, SavedPdf, type CoreToHost, type HostSignal } from '../../shared/ipc/host.ts';

// Runs inside the utility process. Everything here is plumbing between Electron's parent port
// and the core; nothing decides anything.

/** Electron's MessagePortMain, as far as it is used here. */
export interface MainPortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  off(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  once(event: 'close', listener: () => void): unknown;
  start(): void;
}

/** `process.parentPort` in a utility process. */
export interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown; ports: MainPortLike[] }) => void): unknown;
  postMessage(message: unknown): void;
}

export interface RunningCore {
  router: Router;
  bus: EventBus;
  signal(signal: HostSignal): void;
  close(): Promise<void>;
}

export type StartCore = (options: { dataDir: string; host: HostBridge }) => Promise<RunningCore>;

export function mainPort(port: MainPortLike): PortLike {
  return {
    postMessage: (message) => port.postMessage(message),
    onMessage(listener) {
      const handler = (event: { data: unknown }) => listener(event.data);
      port.on('message', handler);
      port.start();
      return () => port.off('message', handler);
    },
    onClose: (listener) => port.once('close', listener),
  };
}

export function dataDirFrom(argv: readonly string[]): string {
  const index = argv.indexOf('--data-dir');
  const value = index === -1 ? undefined : argv[index + 1];
  if (!value) throw new Error('the core needs --data-dir <folder>');
  return value;
}

/** Each request kind without its id, which `request` assigns. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
type RequestBody = WithoutId<Extract<CoreToHost, { id: number }>>;

/** The host bridge over the parent port: requests carry ids, the main process replies. */
export function parentPortBridge(parentPort: ParentPortLike): { host: HostBridge; settle(reply: Extract<HostToCore, { type: 'reply' }>): void } {
  let nextId = 1;
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

  function request(body: RequestBody): Promise<unknown> {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      parentPort.postMessage({ ...body, id } satisfies CoreToHost);
    });
  }

  const send = (message: CoreToHost) => parentPort.postMessage(message);

  const host: HostBridge = {
    openExternal: async (url) => {
      await request({ type: 'open-external', url });
    },
    notify: (notification) => send({ type: 'notify', notification }),
    setTrayState: (state) => send({ type: 'tray', state }),
    applyShellSettings: (settings) => send({ type: 'settings', ...settings }),
    savePdf: async (fileName) => SavedPdf.parse(await request({ type: 'save-pdf', fileName })),
    cipher: {
      isAvailable: async () => (await request({ type: 'cipher-available' })) === true,
      encrypt: async (plaintext) => {
        const value = await request({ type: 'encrypt', plaintext });
        if (typeof value !== 'string') throw new Error('the host returned no ciphertext');
        return new Uint8Array(Buffer.from(value, 'base64'));
      },
      decrypt: async (ciphertext) => {
        const value = await request({ type: 'decrypt', ciphertext: Buffer.from(ciphertext).toString('base64') });
        if (typeof value !== 'string') throw new Error('the host returned no plaintext');
        return value;
      },
    },
  };

  return {
    host,
    settle(reply) {
      const waiter = waiting.get(reply.id);
      if (!waiter) return;
      waiting.delete(reply.id);
      if (reply.ok) waiter.resolve(reply.value);
      else waiter.reject(new Error(reply.error ?? 'the host refused'));
    },
  };
}

export interface UtilityHostOptions {
  parentPort: ParentPortLike;
  argv: readonly string[];
  startCore: StartCore;
  exit(code: number): void;
}

/**
 * Starts the core and serves it: ports and signals that arrive while it starts wait for it, a
 * clicked notification becomes the `open-breach` event, and `shutdown` closes it before exit.
 */
export async function runUtilityHost(options: UtilityHostOptions): Promise<void> {
  const { parentPort } = options;
  const bridge = parentPortBridge(parentPort);
  const early: { ports: MainPortLike[]; signals: HostSignal[]; open?: string } = { ports: [], signals: [] };
  let core: RunningCore | undefined;
  let closing = false;

  const shutdown = async (code: number) => {
    if (closing) return;
    closing = true;
    try {
      await core?.close();
    } catch (error) {
      console.error('the core did not close cleanly', error);
      code = code || 1;
    }
    options.exit(code);
  };

  parentPort.on('message', (event) => {
    const parsed = HostToCore.safeParse(event.data);
    if (!parsed.success) return console.error('ignored a malformed message from the main process');
    const message = parsed.data;
    switch (message.type) {
      case 'reply':
        return bridge.settle(message);
      case 'signal':
        return core ? core.signal(message.signal) : void early.signals.push(message.signal);
      case 'connect':
        for (const port of event.ports) {
          if (core) servePort(mainPort(port), core.router, core.bus);
          else early.ports.push(port);
        }
        return;
      case 'open-breach':
        if (core) core.bus.emit('open-breach', { id: message.id });
        else early.open = message.id;
        return;
      case 'shutdown':
        return void shutdown(0);
    }
  });

  try {
    core = await options.startCore({ dataDir: dataDirFrom(options.argv), host: bridge.host });
  } catch (error) {
    console.error('the core could not start', error);
    return options.exit(1);
  }
  for (const port of early.ports.splice(0)) servePort(mainPort(port), core.router, core.bus);
  for (const signal of early.signals.splice(0)) core.signal(signal);
  if (early.open !== undefined) core.bus.emit('open-breach', { id: early.open });
  parentPort.postMessage({ type: 'ready' } satisfies CoreToHost);
}
