import type { ChannelInput, ChannelName, ChannelResult } from './contract.ts';
import type { EventName, EventPayload } from './events.ts';

/**
 * `window.monitor`, the renderer's only way to the core. The Electron preload and the browser
 * host's client both implement it.
 *
 * `invoke` rejects with a plain `IpcError` object (`{ code, message, issues? }`), not an Error:
 * contextBridge copies only the message of an Error across worlds, and the code is what a UI
 * decides on. Unknown channel names are refused before anything is sent.
 */
export interface MonitorApi {
  invoke<C extends ChannelName>(channel: C, args: ChannelInput<C>): Promise<ChannelResult<C>>;
  /** Only names in `EVENT_NAMES`; returns the function that stops listening. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /**
   * Where a file the person chose in an `<input type="file">` is on this computer ('' when it is
   * not on disk). Only the Electron preload has it (Electron's `webUtils.getPathForFile`); a page in
   * a browser never learns a file's path, so it asks the person to type it.
   */
  pathForFile?(file: File): string;
}

/**
 * The only two Electron IPC messages between the preload and the main process: the preload asks
 * for a port to the core, the main process answers (and again whenever the core restarts) with a
 * MessagePort in the transfer list. Everything else travels over that port.
 */
export const PORT_REQUEST_CHANNEL = 'core-port-request';
export const PORT_DELIVERY_CHANNEL = 'core-port';
