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
  /**
   * The local reference service this host runs (`npm start`), restarted for a new breach-data
   * choice; absent where the host runs none it can restart (then the choice applies at the next start).
   */
  localService?: LocalServiceControl;
}

/**
 * How the local reference service runs for a choice: with the person's Have I Been Pwned key
 * (in its environment as `BREACH_SERVICE_HIBP_API_KEY`, never on a command line, and without
 * `--dev`, so nothing is invented), with `--dev` (invented demo data, labelled), or with neither
 * (`none`: the person chose their key but it is not kept any more; the service then says it has
 * no source, and invents nothing).
 */
export type LocalServiceLaunch = { source: 'hibp'; apiKey: string; /** Another HIBP API v3 address (`BREACH_SERVICE_HIBP_URL`). */ hibpUrl?: string } | { source: 'demo' } | { source: 'none' };

export interface LocalServiceControl {
  /** Restarts the service for `launch`; resolves once it answers, rejects with a sentence a person can read. */
  apply(launch: LocalServiceLaunch): Promise<void>;
  /**
   * The owner secret of the service this host started for the person on real data (`--owner`,
   * read from its data folder, docs/auth.md), when `issuer` is that service's; undefined for any
   * other issuer, for demo data (its demo users sign in), and for a service the host did not start.
   */
  ownerSecret?(issuer: string): string | undefined;
}

export interface SecretCipher {
  isAvailable(): Promise<boolean>;
  encrypt(plaintext: string): Promise<Uint8Array>;
  decrypt(ciphertext: Uint8Array): Promise<string>;
}

export type { CoreNotification, HostSignal, TrayState };
