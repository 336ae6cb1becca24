import { ipcMain, type IpcMainEvent, type WebContents } from 'electron';

export interface SenderPolicy {
  /** The renderer's own pages (see `renderer.ts`). */
  isTrustedUrl(url: string): boolean;
  /** The web contents of windows this app created. */
  isKnownContents(contents: WebContents): boolean;
}

/**
 * A message counts only when it comes from the top frame of one of our windows showing our own
 * page: not a subframe, not a frame that has navigated away, not some other web contents.
 */
export function isTrustedSender(event: Pick<IpcMainEvent, 'sender' | 'senderFrame'>, policy: SenderPolicy): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null || frame.detached || frame.isDestroyed()) return false;
  // Compared by id: WebFrameMain wrappers are not promised to be the same object each time.
  if (!policy.isKnownContents(event.sender) || frame.frameTreeNodeId !== event.sender.mainFrame.frameTreeNodeId) return false;
  return policy.isTrustedUrl(frame.url);
}

/** `ipcMain.on` that drops, and logs, messages from anyone but our own top frames. */
export function onTrustedMessage(channel: string, policy: SenderPolicy, listener: (event: IpcMainEvent, ...args: unknown[]) => void): () => void {
  const guarded = (event: IpcMainEvent, ...args: unknown[]) => {
    if (!isTrustedSender(event, policy)) {
      console.warn(`ignored "${channel}" from an untrusted sender (${event.senderFrame?.url ?? 'no frame'})`);
      return;
    }
    listener(event, ...args);
  };
  ipcMain.on(channel, guarded);
  return () => ipcMain.off(channel, guarded);
}
