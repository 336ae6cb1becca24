import { BrowserWindow, screen, type WebContents } from 'electron';
import { fitToDisplays, loadWindowState, saveWindowState, type WindowState } from './windowState.ts';

export const WINDOW_TITLE = 'Breach Monitor';
export const DEFAULT_WINDOW_STATE: WindowState = { width: 1200, height: 800, maximized: false };

export interface MainWindowOptions {
  preloadPath: string;
  entryUrl: string;
  statePath: string;
  iconPath?: string | undefined;
  devTools: boolean;
}

export interface MainWindow {
  /** Shows the window, creating it if it was closed; returns it. */
  show(): BrowserWindow;
  /** Web contents of the window while it exists (sender checks). */
  isOwnContents(contents: WebContents): boolean;
  contents(): WebContents | undefined;
  /** The window while it exists (the parent of its dialogs, what prints to PDF). */
  current(): BrowserWindow | undefined;
  /** When true (the default), closing the window hides it and the app stays in the tray. */
  setCloseToTray(enabled: boolean): void;
  /** From now on closing really closes (the app is quitting). */
  allowClose(): void;
}

const SAVE_DELAY_MS = 500;

function geometry(state: WindowState): { x?: number; y?: number; width: number; height: number } {
  const { x, y, width, height } = state;
  return x === undefined || y === undefined ? { width, height } : { x, y, width, height };
}

export function createMainWindow(options: MainWindowOptions): MainWindow {
  let window: BrowserWindow | undefined;
  let closeToTray = true;
  let quitting = false;

  function create(): BrowserWindow {
    const saved = loadWindowState(options.statePath) ?? DEFAULT_WINDOW_STATE;
    const state = fitToDisplays(
      saved,
      screen.getAllDisplays().map((display) => display.workArea),
    );
    // Written out at the constructor, not built elsewhere, so reviewers and Electronegativity see
    // every security preference where the window is made.
    const created = new BrowserWindow({
      title: WINDOW_TITLE,
      ...geometry(state),
      minWidth: 720,
      minHeight: 480,
      show: false,
      ...(options.iconPath ? { icon: options.iconPath } : {}),
      webPreferences: {
        // Reviewed: the preload exposes only `monitor.invoke` and `monitor.on`, both allowlisted.
        preload: options.preloadPath /* eng-disable PRELOAD_JS_CHECK */,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        experimentalFeatures: false,
        webviewTag: false,
        navigateOnDragDrop: false,
        safeDialogs: true,
        spellcheck: false,
        // Middle-click would otherwise try to open links in new windows.
        disableBlinkFeatures: 'Auxclick',
        devTools: options.devTools,
      },
    });
    if (state.maximized) created.maximize();
    rememberBounds(created, options.statePath);
    created.on('close', (event) => {
      if (closeToTray && !quitting) {
        event.preventDefault();
        created.hide();
      }
    });
    created.on('closed', () => {
      if (window === created) window = undefined;
    });
    created.once('ready-to-show', () => created.show());
    void created.loadURL(options.entryUrl);
    return created;
  }

  return {
    show() {
      if (!window || window.isDestroyed()) {
        window = create();
        return window;
      }
      if (window.isMinimized()) window.restore();
      window.show();
      window.focus();
      return window;
    },
    isOwnContents: (contents) => window !== undefined && !window.isDestroyed() && window.webContents === contents,
    contents: () => (window && !window.isDestroyed() ? window.webContents : undefined),
    current: () => (window && !window.isDestroyed() ? window : undefined),
    setCloseToTray(enabled) {
      closeToTray = enabled;
    },
    allowClose() {
      quitting = true;
    },
  };
}

/** Saves size and position shortly after each change and once more when the window closes. */
function rememberBounds(window: BrowserWindow, statePath: string): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = () => {
    clearTimeout(timer);
    timer = undefined;
    if (window.isDestroyed()) return;
    try {
      const { x, y, width, height } = window.getNormalBounds();
      saveWindowState(statePath, { x: Math.round(x), y: Math.round(y), width: Math.round(width), height: Math.round(height), maximized: window.isMaximized() });
    } catch (error) {
      console.warn('could not save the window position', error);
    }
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(save, SAVE_DELAY_MS);
  };
  window.on('resize', later);
  window.on('move', later);
  window.on('maximize', later);
  window.on('unmaximize', later);
  window.on('close', save);
}
