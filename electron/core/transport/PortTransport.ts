import type { MessagePort } from 'node:worker_threads';
import type { EventBus } from '../events/EventBus.ts';
import type { Router } from '../handlers/Router.ts';

/**
 * The least a message channel must offer. Electron's MessagePortMain, Node's worker
 * MessagePort and `process.parentPort` all fit through a small adapter.
 */
export interface PortLike {
  postMessage(message: unknown): void;
  /** Returns a function that stops listening. */
  onMessage(listener: (data: unknown) => void): () => void;
  onClose?(listener: () => void): void;
}

/** Serves the router and the event stream over one port until it closes. */
export function servePort(port: PortLike, router: Router, bus: EventBus): () => void {
  const stopListening = port.onMessage((data) => {
    void router.dispatch(data).then((response) => {
      try {
        port.postMessage(response);
      } catch {
        // The other side went away mid-call; nothing to answer.
      }
    });
  });
  const subscription = bus.subscribe((event, payload) => port.postMessage({ type: 'event', event, payload }));
  const stop = () => {
    stopListening();
    subscription.dispose();
  };
  port.onClose?.(stop);
  return stop;
}

/** Adapts a Node `worker_threads` MessagePort (tests, and any Node host). */
export function nodePort(port: MessagePort): PortLike {
  return {
    postMessage: (message) => port.postMessage(message),
    onMessage(listener) {
      port.on('message', listener);
      return () => port.off('message', listener);
    },
    onClose: (listener) => port.once('close', listener),
  };
}
