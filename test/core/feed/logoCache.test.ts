import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogoCache, mayFetchLogo } from '../../../electron/core/feed/LogoCache.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
let server: Server;
let origin: string;
let requests = 0;
/** Bytes the endless logo had sent when its reader went away, per request. */
const endlessSent: number[] = [];
const ENDLESS_CAP = 64 * 1024 * 1024;
const dirs: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    if (req.url === '/logos/a.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else if (req.url === '/logos/page.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<script>x</script>');
    else if (req.url === '/logos/endless.png') {
      // An image that never ends (capped here at 64 MB, so a reader without a bound finishes): written as fast as it is read.
      res.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      let sent = 0;
      const pump = () => {
        while (sent < ENDLESS_CAP && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.once('close', () => endlessSent.push(sent));
      pump();
    } else if (req.url === '/logos/declared-large.png') res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(10 * 1024 * 1024) }).end(Buffer.alloc(10 * 1024 * 1024));
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function cache(now = () => Date.now()): { logos: LogoCache; dir: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'logos-'));
  dirs.push(dir);
  return { logos: new LogoCache({ dir, now }), dir };
}

describe('LogoCache', () => {
  it('fetches a logo once (relative paths against the feed URL) and serves it from disk as a data: URL', async () => {
    const { logos, dir } = cache();
    const before = requests;
    const first = await logos.dataUrl('/logos/a.png', `${origin}/rtdb`);
    expect(first).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    expect(readdirSync(dir)).toHaveLength(1);
    expect(await new LogoCache({ dir }).dataUrl(`${origin}/logos/a.png`, 'http://elsewhere.example/rtdb')).toBe(first);
    expect(requests - before).toBe(1);
  });

  it('answers nothing, quickly and without throwing, for unreachable logos, non-images and other schemes; retries only later', async () => {
    let now = 0;
    const { logos } = cache(() => now);
    expect(await logos.dataUrl('https://haveibeenpwned.invalid/Content/Images/PwnedLogos/Adobe.png', `${origin}/rtdb`)).toBeUndefined();
    expect(await logos.dataUrl('http://127.0.0.1:9/x.png', `${origin}/rtdb`)).toBeUndefined();
    expect(await logos.dataUrl('/logos/page.html', `${origin}/rtdb`)).toBeUndefined();
    expect(await logos.dataUrl('javascript:alert(1)', `${origin}/rtdb`)).toBeUndefined();
    expect(await logos.dataUrl('', `${origin}/rtdb`)).toBeUndefined();
    const before = requests;
    expect(await logos.dataUrl('/logos/page.html', `${origin}/rtdb`)).toBeUndefined();
    expect(requests).toBe(before);
    now += 11 * 60_000;
    await logos.dataUrl('/logos/page.html', `${origin}/rtdb`);
    expect(requests).toBe(before + 1);
  });

  it('stops reading a logo past 256 KB instead of taking the whole answer first (issue 35, bounds)', async () => {
    const { logos, dir } = cache();
    expect(await logos.dataUrl('/logos/endless.png', `${origin}/rtdb`)).toBeUndefined();
    await expect.poll(() => endlessSent.length).toBe(1);
    // What the kernel's buffers hold besides the 256 KB read; a reader without a bound takes all 64 MB.
    expect(endlessSent[0]).toBeLessThan(16 * 1024 * 1024);
    expect(await logos.dataUrl('/logos/declared-large.png', `${origin}/rtdb`)).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a hostile catalog cannot send the core to this machine or its network: only the feed's origin, or https to a public host", async () => {
    const { logos } = cache();
    const before = requests;
    // The loopback server holds a logo, but the feed is elsewhere: the core never asks it.
    for (const hostile of [
      `${origin}/logos/a.png`,
      'http://localhost:9/x.png',
      'https://127.0.0.1/x.png',
      'https://[::1]/x.png',
      'https://10.0.0.8/x.png',
      'https://192.168.1.1/x.png',
      'https://169.254.169.254/latest/meta-data',
      'https://[::ffff:127.0.0.1]/x.png',
    ]) {
      expect(await logos.dataUrl(hostile, 'https://feed.example/rtdb'), hostile).toBeUndefined();
    }
    expect(requests).toBe(before);
    expect(mayFetchLogo(new URL('https://logos.haveibeenpwned.com/Adobe.png'), 'https://feed.example/rtdb')).toBe(true);
    expect(mayFetchLogo(new URL('http://logos.example/Adobe.png'), 'https://feed.example/rtdb')).toBe(false);
    expect(mayFetchLogo(new URL(`${origin}/logos/a.png`), `${origin}/rtdb`)).toBe(true);
  });
});
