import { Emitter } from '../../shared/base/Emitter.ts';
import { isChannelName, type ChannelInput, type ChannelName, type ChannelResult } from '../../shared/ipc/contract.ts';
import { isEventName, type EventName, type EventPayload } from '../../shared/ipc/events.ts';
import type { MonitorApi } from '../../shared/ipc/monitorApi.ts';
import type { IpcError, IpcErrorCode } from '../../shared/ipc/protocol.ts';

/** The part of a DOM MessagePort the client uses (the preload gets one from the main process). */
export interface WebPort {
  postMessage(message: unknown): void;
  start(): void;
  close(): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'close', listener: () => void): void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: IpcError): void;
  message: { type: 'request'; id: number; channel: string; args: unknown };
  /** The port the request went out on; undefined while it waits for one. */
  sentOn?: WebPort;
}

/**
 * Events that are instructions rather than state: one that arrives before the UI listens (a
 * notification clicked while the window was still loading) is kept for the first listener.
 */
const KEPT_UNTIL_HEARD: ReadonlySet<EventName> = new Set<EventName>(['open-breach']);

const RESTARTED: IpcError = { code: 'unavailable', message: "The app's background service restarted before answering; try again." };

export interface MonitorClient {
  api: MonitorApi;
  /** Switch to a new port to the core; calls in flight on the old one are rejected. */
  adoptPort(port: WebPort): void;
}

/**
 * `window.monitor` over a MessagePort to the core: request ids paired with responses, calls made
 * before the port arrives queued, and names checked against the contract before they are sent.
 */
export function createMonitorClient(options: { requestPort(): void }): MonitorClient {
  let port: WebPort | undefined;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  // One emitter per event: one broken view must not starve the others of the event (it is reported).
  const listeners = new Map<EventName, Emitter<unknown>>();
  const eventOf = (event: EventName): Emitter<unknown> => {
    let emitter = listeners.get(event);
    if (!emitter) listeners.set(event, (emitter = new Emitter({ onListenerError: (error) => console.error(`listener for "${event}" failed`, error) })));
    return emitter;
  };
  const kept = new Map<EventName, unknown>();

  function send(call: Pending, target: WebPort): void {
    try {
      target.postMessage(call.message);
      call.sentOn = target;
    } catch (error) {
      pending.delete(call.message.id);
      call.reject(ipcError('invalid-arguments', `arguments for "${call.message.channel}" cannot be sent: ${String(error)}`));
    }
  }

  function failCallsOn(lost: WebPort): void {
    for (const [id, call] of pending) {
      if (call.sentOn !== lost) continue;
      pending.delete(id);
      call.reject(RESTARTED);
    }
  }

  function receive(data: unknown): void {
    if (typeof data !== 'object' || data === null || !('type' in data)) return;
    if (data.type === 'response' && 'id' in data && typeof data.id === 'number') {
      const call = pending.get(data.id);
      if (!call) return;
      pending.delete(data.id);
      if ('ok' in data && data.ok === true) call.resolve('result' in data ? data.result : undefined);
      else call.reject('error' in data ? toIpcError(data.error) : ipcError('internal', 'the core answered without an error'));
      return;
    }
    if (data.type === 'event' && 'event' in data && isEventName(data.event)) {
      deliver(data.event, 'payload' in data ? data.payload : undefined);
    }
  }

  function deliver(event: EventName, payload: unknown): void {
    const heard = listeners.get(event);
    if (!heard || heard.listenerCount === 0) {
      if (KEPT_UNTIL_HEARD.has(event)) kept.set(event, payload);
      return;
    }
    heard.fire(payload);
  }

  function adoptPort(next: WebPort): void {
    const previous = port;
    port = next;
    if (previous) {
      failCallsOn(previous);
      try {
        previous.close();
      } catch {
        // Already closed with the process that owned its other end.
      }
    }
    next.addEventListener('message', (event) => {
      if (port === next) receive(event.data);
    });
    next.addEventListener('close', () => {
      if (port !== next) return;
      port = undefined;
      failCallsOn(next);
      options.requestPort();
    });
    next.start();
    for (const call of pending.values()) if (!call.sentOn) send(call, next);
  }

  const api = {
    invoke<C extends ChannelName>(channel: C, args: ChannelInput<C>): Promise<ChannelResult<C>> {
      if (!isChannelName(channel)) return Promise.reject(ipcError('unknown-channel', `no channel named "${String(channel)}"`));
      return new Promise<ChannelResult<C>>((resolve, reject) => {
        const id = nextId++;
        const call: Pending = { resolve: resolve as (value: unknown) => void, reject, message: { type: 'request', id, channel, args: args ?? {} } };
        pending.set(id, call);
        if (port) send(call, port);
      });
    },
    on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
      if (!isEventName(event)) throw new TypeError(`no event named "${String(event)}"`);
      if (typeof listener !== 'function') throw new TypeError('listener must be a function');
      const wrapped = listener as (payload: unknown) => void;
      const registration = eventOf(event).event(wrapped);
      if (kept.has(event)) {
        const payload = kept.get(event);
        kept.delete(event);
        queueMicrotask(() => wrapped(payload));
      }
      return () => registration.dispose();
    },
  } satisfies MonitorApi;

  return { api, adoptPort };
}

function ipcError(code: IpcErrorCode, message: string): IpcError {
  return { code, message };
}

function toIpcError(value: unknown): IpcError {
  if (typeof value === 'object' && value !== null && 'code' in value && 'message' in value && typeof value.message === 'string') {
    return value as IpcError;
  }
  return ipcError('internal', 'the core answered with an unreadable error');
}
