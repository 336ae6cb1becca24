import { spawn } from 'node:child_process';
import { platform } from 'node:os';

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
  const [command, args] =
    platform() === 'darwin' ? ['open', [url]] : platform() === 'win32' ? ['rundll32', ['url.dll,FileProtocolHandler', url]] : ['xdg-open', [url]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
    const running = setTimeout(() => {
      child.unref();
      resolve();
    }, STILL_RUNNING_MS);
    running.unref();
    child.once('error', () => {
      clearTimeout(running);
      reject(new Error(`could not start ${command} to open the browser`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(running);
      if (code === 0) resolve();
      else reject(new Error(`${command} could not open a browser (${signal ? `ended by ${signal}` : `exit code ${code}`})`));
    });
  });
}
