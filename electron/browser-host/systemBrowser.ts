import { spawn } from 'node:child_process';
import { platform } from 'node:os';

/** Opens an http(s) URL in the person's default browser; rejects with a message in words. */
export function openInSystemBrowser(url: string): Promise<void> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return Promise.reject(new Error(`refusing to open a ${parsed.protocol} address`));
  const [command, args] =
    platform() === 'darwin' ? ['open', [url]] : platform() === 'win32' ? ['rundll32', ['url.dll,FileProtocolHandler', url]] : ['xdg-open', [url]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
    child.once('error', () => reject(new Error(`could not start ${command} to open the browser; open this address yourself: ${parsed.origin}${parsed.pathname}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
