import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogoCache } from '../../../electron/core/feed/LogoCache.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
let server: Server;
let origin: string;
let requests = 0;
const dirs: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    if (req.url === '/logos/a.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else if (req.url === '/logos/page.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<script>x</script>');
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
});
