import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// For building the renderer alone; the app's build is electron.vite.config.ts with the same
// settings. `base: './'` keeps asset URLs relative, so one build serves app://bundle/ and /app/.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  build: {
    outDir: '../out/renderer',
    emptyOutDir: true,
    target: 'chrome130',
  },
});
