// The Host rule: a page whose hostname was rebound to 127.0.0.1 still sends its own name, so
// the service answers only its own names, before routing, on every mount.
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../server/app.ts';

let service: RunningService;
let dataDir: string;
let port: number;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'svc-host-'));
  service = await startService({ port: 0, dataDir, dev: true, logLevel: 'silent', publicOrigin: 'https://alerts.example.org' });
  port = Number(new URL(service.url).port);
});
afterAll(async () => {
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
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

const MOUNTS: [string, string, string?][] = [
  ['POST', '/__dev/token', JSON.stringify({ sub: 'alice', email: 'alice@example.com' })],
  ['GET', '/api/v1/user/breaches'],
  ['POST', '/api/v1/user'],
  ['GET', '/oidc/.well-known/openid-configuration'],
  ['GET', '/v2/node?key=dev-key&nodes=Adobe&property=->*'],
  ['GET', '/'],
  ['GET', '/openapi.yaml'],
  ['GET', '/no/such/path'],
];

describe('the Host rule', () => {
  it.each(MOUNTS)('%s %s with a foreign Host gets 421 problem+json', async (method, pathname, body) => {
    for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1.evil.example:${port}`, `127.0.0.1:${port + 1}`]) {
      const answer = await send(method, pathname, host, body);
      expect(answer.status, `${host}: ${answer.text}`).toBe(421);
      expect(answer.type).toMatch(/^application\/problem\+json/);
      expect(answer.text).not.toContain('access_token');
    }
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
