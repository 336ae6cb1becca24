import { spawn } from 'node:child_process';
import { platform } from 'node:os';
import path from 'node:path';

/**
 * How long an opener that is still running counts as having opened the browser: some
 * `xdg-open` setups run the browser in the foreground and only return when it closes.
 */
const STILL_RUNNING_MS = 3_000;

/**
 * Opens an http(s) URL in the person's default browser; rejects with a message in words when no
 * browser could be opened — the opener could not start, or exited non-zero (`xdg-open` does on
 * headless, SSH and container machines, where there is no desktop to open a browser on).
 */
export function openInSystemBrowser(url: string): Promise<void> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return Promise.reject(new Error(`refusing to open a ${parsed.protocol} address`));
  return launch(url, `open this address yourself: ${parsed.origin}${parsed.pathname}`);
}

/** Opens a local HTML file (an absolute path) in the person's default browser. */
export function openFileInSystemBrowser(file: string): Promise<void> {
  if (!path.isAbsolute(file) || path.extname(file) !== '.html') return Promise.reject(new Error('only an absolute path to an .html file is opened'));
  return launch(file, 'open the address Breach Monitor printed yourself');
}

function launch(target: string, fallback: string): Promise<void> {
  const [command, args] = platform() === 'darwin' ? ['open', [target]] : platform() === 'win32' ? ['rundll32', ['url.dll,FileProtocolHandler', target]] : ['xdg-open', [target]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
    const running = setTimeout(() => {
      child.unref();
      resolve();
    }, STILL_RUNNING_MS);
    running.unref();
    child.once('error', () => {
      clearTimeout(running);
      reject(new Error(`could not start ${command} to open the browser; ${fallback}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(running);
      if (code === 0) resolve();
      else reject(new Error(`${command} could not open a browser (${signal ? `ended by ${signal}` : `exit code ${code}`}); ${fallback}`));
    });
  });
}
