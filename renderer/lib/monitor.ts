/**
 * The one object the renderer talks to. The preload exposes it in Electron; `httpMonitor.ts`
 * provides it in a plain browser; tests install a double. Untyped on purpose at this edge:
 * `core.ts` adds the contract's types on top, so every implementation stays trivially small.
 */
export interface MonitorBridge {
  /** Resolves with the channel's result; rejects with `{ code, message, issues? }` (an IpcError). */
  invoke(channel: string, args?: unknown): Promise<unknown>;
  /** Returns a function that stops listening. */
  on(event: string, listener: (payload: unknown) => void): () => void;
  /**
   * Optional: the path of a file chosen in a file input (the Electron preload's `webUtils`). A
   * browser never tells a page where a file is: without it, the page asks for the path in words.
   */
  pathForFile?(file: File): string;
  /**
   * Optional: transports that can drop (HTTP) report it, so the UI can say so and re-query
   * what it may have missed. The MessagePort in Electron never drops while the window lives.
   */
  onConnection?(listener: (connected: boolean) => void): () => void;
  /**
   * Optional: whether this window may have missed a change since its first answers, those asked
   * before its event stream was open (`early.ts`). False only when the stream, as it first
   * opened, said no event had been sent since they were computed; asked when the connection
   * first reports open.
   */
  missedSinceFirstAnswers?(): boolean;
}

declare global {
  interface Window {
    monitor?: MonitorBridge;
  }
}
