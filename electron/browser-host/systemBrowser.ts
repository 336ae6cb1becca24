import { spawn } from 'node:child_process';
import { platform } from 'node:os';
import path from 'node:path';

/** Opens an http(s) URL in the person's default browser; rejects with a message in words. */
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
  const [command, args] =
    platform() === 'darwin' ? ['open', [target]] : platform() === 'win32' ? ['rundll32', ['url.dll,FileProtocolHandler', target]] : ['xdg-open', [target]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
    child.once('error', () => reject(new Error(`could not start ${command} to open the browser; ${fallback}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
