// The Host rule: a page whose hostname was rebound to 127.0.0.1 still sends its own name, so
// the service answers only its own names, before routing, on every mount.
import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { useDevService } from '../../support/useDevService.ts';
import { sendRaw, walkRequests } from '../../support/routeWalk.ts';

const running = useDevService({ publicOrigin: 'https://alerts.example.org' });
let port: number;
beforeAll(() => {
  port = Number(new URL(running.service.url).port);
});

/** One request with a chosen Host header (fetch cannot set it). */
function send(method: string, pathname: string, host: string | undefined, body?: string): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {};
    const req = request({ host: '127.0.0.1', port, method, path: pathname, headers, setHost: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), text }));
    });
    if (host !== undefined) req.setHeader('host', host);
    req.on('error', reject);
    req.end(body);
  });
}

describe('the Host rule', () => {
  // Driven from the router's own table: a mount added tomorrow is checked the day it is added.
  it('every route × method of every mount with a foreign Host gets 421 problem+json', async () => {
    let checked = 0;
    const mounts = new Set<string>();
    for (const walk of walkRequests(running.service.mounts, { account: running.service.accountId })) {
      if (
        Object.keys(walk.headers).some((name) => name !== 'content-type') ||
        walk.path.includes('print=') ||
        walk.path.includes('shallow=') ||
        walk.path.includes('auth=') ||
        walk.path.includes('format=')
      )
        continue;
      for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1.evil.example:${port}`, `127.0.0.1:${port + 1}`]) {
        const answer = await sendRaw(port, host, walk);
        expect(answer.status, `${walk.method} ${walk.path} Host ${host}: ${answer.body.slice(0, 200)}`).toBe(421);
        expect(String(answer.headers['content-type'])).toMatch(/^application\/problem\+json/);
        expect(answer.body).not.toContain('access_token');
        checked++;
      }
      mounts.add(walk.mount);
    }
    expect([...mounts].sort()).toEqual(running.service.mounts.map((entry) => entry.name).sort());
    expect(checked).toBeGreaterThan(100);
  });

  it.each([['GET', '/no/such/path']])('%s %s (no mount) with a foreign Host gets 421 too', async (method, pathname) => {
    expect((await send(method, pathname, `evil.example:${port}`)).status).toBe(421);
  });

  it('refuses a request without a Host header (Node itself answers 400 for HTTP/1.1)', async () => {
    expect([400, 421]).toContain((await send('GET', '/', undefined)).status);
  });

  it('answers its loopback names on its port, in any case, and its configured public origin', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`, 'alerts.example.org']) {
      expect((await send('GET', '/', host)).status, host).toBe(200);
    }
    expect((await send('POST', '/__dev/token', `localhost:${port}`, JSON.stringify({ sub: 'alice' }))).status).toBe(200);
  });
});
