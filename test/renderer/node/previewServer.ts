/**
 * The built renderer against the fake core, over the browser host's HTTP shape (`/app/`,
 * `POST /api/invoke`, `GET /api/events`, the secret header, the real CSP), for looking at the
 * screens in Chromium before the real core exists. Not the browser host: no session cookie.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../../../shared/ipc/security.ts';
import { EVENT_NAMES } from '../../../shared/ipc/events.ts';
import type { FakeCore } from '../fakeCore.ts';

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

export interface Preview {
  origin: string;
  secret: string;
  close(): Promise<void>;
}

export async function startPreview(core: FakeCore, rendererDir: string, secret = 'preview-secret'): Promise<Preview> {
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const headers = { 'content-security-policy': CONTENT_SECURITY_POLICY, 'cache-control': 'no-store' };
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204, headers);
      return res.end();
    }
    if (url.pathname === '/') {
      res.writeHead(200, { ...headers, 'content-type': 'text/html' });
      return res.end('<!doctype html><title>preview</title>');
    }
    if (url.pathname.startsWith('/app/')) {
      const relative = url.pathname.slice('/app/'.length) || 'index.html';
      try {
        const body = await readFile(path.join(rendererDir, path.normalize(relative).replace(/^(\.\.[/\\])+/, '')));
        res.writeHead(200, { ...headers, 'content-type': TYPES[path.extname(relative)] ?? 'application/octet-stream' });
        return res.end(body);
      } catch {
        res.writeHead(404, headers);
        return res.end();
      }
    }
    if (req.headers['x-monitor-secret'] !== secret) {
      res.writeHead(401, headers);
      return res.end('Refused');
    }
    if (url.pathname === '/api/invoke' && req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number; channel: string; args: unknown };
      let response;
      try {
        response = { type: 'response', id: message.id, ok: true, result: await core.invoke(message.channel, message.args) };
      } catch (error) {
        response = { type: 'response', id: message.id, ok: false, error };
      }
      res.writeHead(200, { ...headers, 'content-type': 'application/json' });
      return res.end(JSON.stringify(response));
    }
    if (url.pathname === '/api/events') {
      res.writeHead(200, { ...headers, 'content-type': 'text/event-stream' });
      res.write(': connected\n\n');
      const stops = EVENT_NAMES.map((event) => core.on(event, (payload) => res.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`)));
      req.on('close', () => stops.forEach((stop) => stop()));
      return;
    }
    res.writeHead(404, headers);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    secret,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
