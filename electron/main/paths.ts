import path from 'node:path';

export interface ShellPaths {
  /** The built renderer served on app:// (out/renderer). */
  rendererDir: string;
  preloadPath: string;
  /** The utility process's entry, built next to the main entry. */
  coreEntryPath: string;
  /** Icons and tray images: `resources/` in development, the app's resources folder when packaged. */
  resourcesDir: string;
  /** The core's data (databases, the encrypted secret-store fallback). */
  dataDir: string;
  windowStatePath: string;
  coreLogPath: string;
}

export interface PathInputs {
  /** Folder of the built main entry (out/main). */
  mainDir: string;
  userData: string;
  logs: string;
  appPath: string;
  isPackaged: boolean;
  resourcesPath: string;
}

/** Layout of electron-vite's output: out/main, out/preload, out/renderer side by side. */
export function shellPaths(input: PathInputs): ShellPaths {
  return {
    rendererDir: path.join(input.mainDir, '..', 'renderer'),
    preloadPath: path.join(input.mainDir, '..', 'preload', 'index.cjs'),
    coreEntryPath: path.join(input.mainDir, 'coreEntry.js'),
    resourcesDir: input.isPackaged ? input.resourcesPath : path.join(input.appPath, 'resources'),
    dataDir: path.join(input.userData, 'data'),
    windowStatePath: path.join(input.userData, 'window-state.json'),
    coreLogPath: path.join(input.logs, 'core.log'),
  };
}
