import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface LaunchPage {
  /** The page to open: its path names no code, so a command line carrying it gives nothing away. */
  file: string;
  remove(): void;
}

/**
 * Opens the browser host's link without putting its launch code on a command line, where
 * other local users can read it (`/proc/<pid>/cmdline`): the browser is given a private file
 * (0600 in a 0700 folder) that replaces itself with the link, leaving no history entry.
 * The page is removed once the code has expired, or earlier through `remove`.
 */
export async function openLaunchPage(url: string, open: (file: string) => Promise<void>, options: { lifetimeMs?: number } = {}): Promise<LaunchPage> {
  const target = new URL(url);
  if (target.protocol !== 'http:' || !['127.0.0.1', 'localhost'].includes(target.hostname)) throw new Error('a launch page only opens the local browser host');
  const dir = mkdtempSync(path.join(tmpdir(), 'breach-monitor-open-'));
  const file = path.join(dir, 'open-breach-monitor.html');
  const link = JSON.stringify(target.href).replace(/</g, '\\u003c');
  writeFileSync(
    file,
    `<!doctype html><meta charset="utf-8"><title>Opening Breach Monitor…</title><meta name="referrer" content="no-referrer">` +
      `<script>location.replace(${link});</script><p>Opening Breach Monitor…</p>\n`,
    { mode: 0o600, flag: 'wx' },
  );
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const timer = setTimeout(remove, options.lifetimeMs ?? 2 * 60_000);
  timer.unref();
  try {
    await open(file);
  } catch (error) {
    clearTimeout(timer);
    remove();
    throw error;
  }
  return {
    file,
    remove() {
      clearTimeout(timer);
      remove();
    },
  };
}
