import react from '@vitejs/plugin-react';
import path from 'node:path';
import { defineConfig } from 'electron-vite';

const root = import.meta.dirname;
const at = (...parts: string[]) => path.resolve(root, ...parts);

/** Loaded from node_modules at run time: native code cannot be bundled. */
export const NATIVE_MODULES = ['better-sqlite3', 'keytar'];

// One build for the four parts: main and the core's utility-process entry (ESM, Node target),
// the sandboxed preload (CommonJS, everything inlined: a sandboxed preload can require nothing
// but `electron`), and the renderer (served from app://, see electron/main/protocol.ts).
export default defineConfig({
  main: {
    build: {
      externalizeDeps: false,
      rolldownOptions: {
        input: {
          index: at('electron', 'main', 'index.ts'),
          coreEntry: at('electron', 'main', 'coreEntry.ts'),
        },
        external: NATIVE_MODULES,
        output: { entryFileNames: '[name].js' },
      },
    },
  },
  preload: {
    build: {
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: at('electron', 'preload', 'index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  // The same settings as renderer/vite.config.ts (the browser host's build): one renderer for both hosts.
  renderer: {
    root: at('renderer'),
    base: './',
    plugins: [react()],
    build: {
      outDir: at('out', 'renderer'),
      target: 'chrome130',
      minify: true,
      rolldownOptions: { input: { index: at('renderer', 'index.html') } },
    },
  },
});
