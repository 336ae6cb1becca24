import type { ChannelInput, ChannelName, ChannelResult } from '../../shared/ipc/contract.ts';
import type { EventName, EventPayload } from '../../shared/ipc/events.ts';
import { CoreError, type IpcError } from '../../shared/ipc/protocol.ts';
import { accountTicket, isAccountChannel } from './accountScope.ts';
import { inWords } from './errorText.ts';
import { sharedHttpMonitor } from './httpMonitor.ts';
import type { MonitorBridge } from './monitor.ts';

/**
 * A failed call, in words a person can read (`message`) and with the core's code for decisions:
 * the same class the core throws, so UI and core agree on one error shape.
 */
export const UiError = CoreError;
export type UiError = CoreError;

export function toUiError(error: unknown): UiError {
  if (error instanceof UiError) return error.message === inWords(error.message) ? error : new UiError(error.code, inWords(error.message), error.issues);
  if (typeof error === 'object' && error !== null) {
    const { code, message, issues } = error as Partial<IpcError>;
    if (typeof code === 'string' && typeof message === 'string') return new UiError(code, inWords(message), issues);
    // Electron's contextBridge turns rejections into plain Errors whose message may carry the code.
    if (error instanceof Error) return new UiError('internal', inWords(error.message));
  }
  return new UiError('internal', 'Something went wrong in the app.');
}

/** The bridge: the preload's in Electron, otherwise the browser host's HTTP client. */
export function monitor(): MonitorBridge {
  if (!window.monitor) {
    window.monitor = sharedHttpMonitor();
    browserHost = true;
  }
  return window.monitor;
}

let browserHost = false;

/**
 * True when the app runs in a web browser over the browser host (no preload gave us a bridge):
 * there is no tray and no login item there, so settings about them do nothing.
 */
export function inBrowserHost(): boolean {
  monitor();
  return browserHost;
}

/**
 * The path of a file the person chose, when this host can tell it (Electron's preload); undefined
 * where it cannot (the browser host), so the page offers a field for the path instead. The file
 * itself is never read here: the core reads it from the path.
 */
export function filePathChooser(): ((file: File) => string) | undefined {
  const bridge = monitor();
  return bridge.pathForFile ? (file) => bridge.pathForFile!(file) : undefined;
}

/**
 * Typed call of one channel of `shared/ipc/contract.ts`. Rejects with a {@link UiError}.
 *
 * An account's answer that arrives after the account changed (sign-out, another person signed
 * in) never settles: the caller's continuation does not run, so no store can apply one
 * person's data to the next person's screen, nor show an error about it. Its stores were reset
 * when the account changed (lib/accountScope.ts); nothing waits on the dropped promise.
 */
export async function invoke<C extends ChannelName>(channel: C, args: ChannelInput<C>): Promise<ChannelResult<C>> {
  const ticket = isAccountChannel(channel) ? accountTicket() : undefined;
  let answer: ChannelResult<C>;
  try {
    answer = (await monitor().invoke(channel, args)) as ChannelResult<C>;
  } catch (error) {
    if (ticket && !ticket.current()) return dropped();
    throw toUiError(error);
  }
  if (ticket && !ticket.current()) return dropped();
  return answer;
}

/** A promise that never settles: the answer of a previous account, dropped. */
function dropped<T>(): Promise<T> {
  return new Promise<T>(() => {});
}

/** Typed subscription to one event of `shared/ipc/events.ts`; returns the unsubscribe function. */
export function listen<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
  return monitor().on(event, (payload) => listener(payload as EventPayload<E>));
}

/** Connection changes of transports that can drop; a no-op where they cannot. */
export function onConnection(listener: (connected: boolean) => void): () => void {
  return monitor().onConnection?.(listener) ?? (() => {});
}

/** Whether a change may have come as an event this window never heard, between its first answers and its event stream opening (true where the transport cannot tell). */
export function missedSinceFirstAnswers(): boolean {
  return monitor().missedSinceFirstAnswers?.() ?? true;
}
