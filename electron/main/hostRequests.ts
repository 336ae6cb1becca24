import { safeStorage, shell } from 'electron';
import { CoreToHost, type CoreNotification, type HostToCore, type SavedPdf, type TrayState } from '../../shared/ipc/host.ts';
import { isSafeExternalUrl } from './security.ts';

/** The OS integration the core may ask for, besides the browser and safeStorage. */
export interface HostActions {
  notify(notification: CoreNotification): void;
  setTray(state: TrayState): void;
  applySettings(settings: { startAtLogin: boolean; closeToTray: boolean }): void;
  onReady(): void;
  /** Prints the window to a PDF placed with a save dialog; undefined when the person cancelled. */
  savePdf(fileName: string): Promise<SavedPdf>;
}

type Reply = Extract<HostToCore, { type: 'reply' }>;

/**
 * Answers one message from the core: validated against `CoreToHost` first, since the core runs in
 * another process and a malformed message must not reach the OS. Requests with an id always get a
 * reply, errors included, so nothing in the core waits forever.
 */
export function createHostRequestHandler(actions: HostActions, platform: NodeJS.Platform = process.platform): (raw: unknown) => Promise<Reply | undefined> {
  return async (raw) => {
    const parsed = CoreToHost.safeParse(raw);
    if (!parsed.success) {
      console.warn('ignored a malformed message from the core', parsed.error.issues.slice(0, 3));
      const id = typeof raw === 'object' && raw !== null && 'id' in raw && Number.isInteger(raw.id) ? (raw.id as number) : undefined;
      return id === undefined ? undefined : { type: 'reply', id, ok: false, error: 'malformed request' };
    }
    const message = parsed.data;
    switch (message.type) {
      case 'notify':
        actions.notify(message.notification);
        return undefined;
      case 'tray':
        actions.setTray(message.state);
        return undefined;
      case 'settings':
        actions.applySettings({ startAtLogin: message.startAtLogin, closeToTray: message.closeToTray });
        return undefined;
      case 'ready':
        actions.onReady();
        return undefined;
      case 'save-pdf':
        return answer(message.id, () => actions.savePdf(message.fileName));
      default:
        return answer(message.id, () => perform(message, platform));
    }
  };
}

type Request = Extract<CoreToHost, { id: number }>;

async function perform(message: Request, platform: NodeJS.Platform): Promise<unknown> {
  switch (message.type) {
    case 'open-external':
      if (!isSafeExternalUrl(message.url)) throw new Error('only http(s) URLs without credentials are opened');
      // Validated on the line above.
      await shell.openExternal(message.url); /* eng-disable OPEN_EXTERNAL_JS_CHECK */
      return undefined;
    case 'cipher-available':
      return isCipherAvailable(platform);
    case 'encrypt':
      return safeStorage.encryptString(message.plaintext).toString('base64');
    case 'decrypt':
      return safeStorage.decryptString(Buffer.from(message.ciphertext, 'base64'));
  }
}

/**
 * On Linux without a keyring safeStorage falls back to a hard-coded key ("basic_text"): that
 * protects nothing, so the core is told there is no cipher and picks its next option.
 */
export function isCipherAvailable(platform: NodeJS.Platform): boolean {
  if (!safeStorage.isEncryptionAvailable()) return false;
  if (platform !== 'linux') return true;
  const backend = safeStorage.getSelectedStorageBackend();
  return backend !== 'basic_text' && backend !== 'unknown';
}

async function answer(id: number, work: () => Promise<unknown>): Promise<Reply> {
  try {
    const value = await work();
    return value === undefined ? { type: 'reply', id, ok: true } : { type: 'reply', id, ok: true, value };
  } catch (error) {
    return { type: 'reply', id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
