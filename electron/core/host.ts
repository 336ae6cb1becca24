import type { CoreNotification, HostSignal, SavedPdf, TrayState } from '../../shared/ipc/index.ts';

/**
 * What the core needs from whoever runs it. Electron's main process implements it over the
 * utility process's parent port; the browser host implements it in-process; tests implement
 * it with real recorders. The core never imports `electron`.
 */
export interface HostBridge {
  /**
   * Opens a URL in the person's browser (sign-in); rejects when no browser could be opened.
   * Resolves with 'page' when the host leaves it to the app's page (the browser host: the page
   * already runs in the person's browser and opens the sign-in there).
   */
  openExternal(url: string): Promise<void | 'opened' | 'page'>;
  notify(notification: CoreNotification): void;
  setTrayState(state: TrayState): void;
  /** Host settings the core owns but the OS applies. */
  applyShellSettings?(settings: { startAtLogin: boolean; closeToTray: boolean }): void;
  /**
   * Prints the window showing the report to a PDF placed with a save dialog; undefined when the
   * person cancelled. Absent in hosts without print-to-PDF (the browser host).
   */
  savePdf?(fileName: string): Promise<SavedPdf>;
  /** OS-backed encryption (Electron safeStorage) for the secret-store fallback; absent in hosts without one. */
  cipher?: SecretCipher;
}

export interface SecretCipher {
  isAvailable(): Promise<boolean>;
  encrypt(plaintext: string): Promise<Uint8Array>;
  decrypt(ciphertext: Uint8Array): Promise<string>;
}

export type { CoreNotification, HostSignal, TrayState };
