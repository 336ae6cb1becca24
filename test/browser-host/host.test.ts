// The browser host's door: only this launch's page, on this listener's exact origin, gets in.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/waitFor.ts';
import { startCore, type Core } from '../../electron/core/app.ts';
import { createBrowserHostBridge } from '../../electron/browser-host/browserHostBridge.ts';
import { MAX_EVENT_STREAMS, MAX_STREAM_BUFFER_BYTES, startBrowserHost, type BrowserHost } from '../../electron/browser-host/BrowserHost.ts';
import { LAUNCH_CODE_TTL_MS } from '../../electron/browser-host/guards.ts';

const SECRET = 'test-secret-0123456789abcdefghijklmnopqrstuvwxyz';
let now = Date.now();

/** The launch code of a fresh link. */
const codeOf = (url: string) => new URLSearchParams(new URL(url).hash.slice(1)).get('code') ?? '';

/** Raw HTTP, so Host, Origin and paths go out exactly as written (fetch would normalise them). */
function raw(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: { host: `127.0.0.1:${port}`, ...options.headers }, setHost: false }, (res) => {
      let body = '';
      // An event stream never ends: answer with its status at once (a test expecting a refusal
      // then fails saying what it got, instead of timing out).
      if (String(res.headers['content-type']).startsWith('text/event-stream')) {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
        return;
      }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('browser host', () => {
  let dir: string;
  let core: Core;
  let host: BrowserHost;
  let port: number;
  let cookie: string;
  /** The session token the page holds after exchanging its launch code. */
  let SESSION: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'bm-host-'));
    const rendererDir = path.join(dir, 'renderer');
    mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
    writeFileSync(
      path.join(rendererDir, 'index.html'),
      '<!doctype html><title>app</title><link rel="icon" href="./favicon.svg"><script type="module" src="./assets/app.js"></script><link rel="stylesheet" crossorigin href="./assets/app.css">',
    );
    writeFileSync(path.join(rendererDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log("app")');
    writeFileSync(path.join(rendererDir, 'assets', 'app.css'), 'body { margin: 0 }');
    writeFileSync(path.join(rendererDir, 'assets', 'app.js.map'), '{"version":3,"sources":[],"mappings":""}');
    writeFileSync(path.join(rendererDir, 'assets', 'notes.txt'), 'not an asset type');
    writeFileSync(path.join(dir, 'outside.txt'), 'must never be served');
    // A link inside assets/ to a file outside it must not carry the sessionless rule outside.
    symlinkSync(path.join(dir, 'outside.txt'), path.join(rendererDir, 'assets', 'link-out.js'));
    symlinkSync(path.join(rendererDir, 'index.html'), path.join(rendererDir, 'assets', 'alias.js'));
    core = await startCore({ dataDir: path.join(dir, 'data'), keychain: false, host: createBrowserHostBridge({ log: () => {} }) });
    host = await startBrowserHost({ router: core.router, bus: core.bus, rendererDir, secret: SECRET, now: () => now });
    port = Number(new URL(host.origin).port);
    const session = await raw(port, { method: 'POST', path: '/__session', headers: { 'x-monitor-code': codeOf(host.launchUrl()) } });
    expect(session.status).toBe(200);
    SESSION = (JSON.parse(session.body) as { session: string }).session;
    cookie = String(session.headers['set-cookie']).split(';')[0]!;
  });

  afterAll(async () => {
    await host.close();
    await core.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hands a one-time launch code over in the fragment, never the secret, never in the query string', () => {
    const first = new URL(host.launchUrl());
    const second = new URL(host.launchUrl());
    expect(first.search).toBe('');
    expect(first.hash).toMatch(/^#code=[\w-]{32}$/);
    expect(first.href).not.toContain(SECRET);
    expect(codeOf(first.href)).not.toBe(codeOf(second.href));
  });

  it('exchanges a launch code once: a second use is refused', async () => {
    const code = codeOf(host.launchUrl());
    const first = await raw(port, { method: 'POST', path: '/__session', headers: { 'x-monitor-code': code } });
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    const again = await raw(port, { method: 'POST', path: '/__session', headers: { 'x-monitor-code': code } });
    expect(again.status).toBe(401);
    expect(again.body).toMatch(/already used or has expired/);
  });

  it('lets a launch code expire after two minutes', async () => {
    const fresh = codeOf(host.launchUrl());
    const stale = codeOf(host.launchUrl());
    now += LAUNCH_CODE_TTL_MS - 1000;
    expect((await raw(port, { method: 'POST', path: '/__session', headers: { 'x-monitor-code': fresh } })).status).toBe(200);
    now += 1000;
    expect((await raw(port, { method: 'POST', path: '/__session', headers: { 'x-monitor-code': stale } })).status).toBe(401);
  });

  it('never accepts the raw launch secret on the wire, as code, key or cookie', async () => {
    expect((await raw(port, { method: 'POST', path: '/__session', headers: { 'x-monitor-code': SECRET } })).status).toBe(401);
    expect((await raw(port, { method: 'POST', path: '/__session', headers: { 'x-monitor-secret': SECRET } })).status).toBe(401);
    const body = JSON.stringify({ type: 'request', id: 1, channel: 'auth-status', args: {} });
    expect((await raw(port, { method: 'POST', path: '/api/invoke', headers: { 'x-monitor-secret': SECRET, 'content-type': 'application/json' }, body })).status).toBe(401);
    expect((await raw(port, { path: '/app/', headers: { cookie: `bm_session_${port}=${SECRET}` } })).status).toBe(401);
  });

  it('renews the cookie for a reloading page that holds its session token', async () => {
    const renewed = await raw(port, { method: 'POST', path: '/__session', headers: { 'x-monitor-secret': SESSION } });
    expect(renewed.status).toBe(200);
    expect(JSON.parse(renewed.body)).toEqual({ session: SESSION });
    expect(String(renewed.headers['set-cookie']).split(';')[0]).toBe(cookie);
  });

  it('serves only the inert bootstrap without the secret', async () => {
    const page = await raw(port, { path: '/' });
    expect(page.status).toBe(200);
    expect(page.body).not.toContain(SECRET);
    // Its one inline script (the exchange) is allowed by the hash of its text; no other inline script is.
    const policy = String(page.headers['content-security-policy']);
    const inline = /<script>([\s\S]*?)<\/script>/.exec(page.body)?.[1];
    expect(inline).toBeDefined();
    expect(policy).toContain(`script-src 'self' 'sha256-${createHash('sha256').update(inline!, 'utf8').digest('base64')}';`);
    expect(policy).not.toContain('unsafe-inline');
    expect(page.body.match(/<script\b/g)).toHaveLength(2); // the inline one, and the app's inside the inert template
    expect(page.headers['cache-control']).toBe('no-store');
    // It carries what loads the app, inert (a template's scripts never run), for after the exchange.
    expect(page.body).toMatch(
      /<template id="app-tags">\s*<link rel="icon" href="\.\/favicon\.svg">\s*<script type="module" src="\.\/assets\/app\.js"><\/script>\s*<link rel="stylesheet" crossorigin href="\.\/assets\/app\.css">\s*<\/template>/,
    );
    expect(page.body).toContain('<div id="root">');
    expect((await raw(port, { path: '/app/' })).status).toBe(401);
  });

  it("fetches the app's hashed code and styles from the bootstrap page's head, before the exchange", async () => {
    const page = await raw(port, { path: '/' });
    const head = /<head>([\s\S]*?)<\/head>/.exec(page.body)?.[1] ?? '';
    expect(head).toContain('<link rel="modulepreload" href="/app/assets/app.js">');
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/app/assets/app.css">');
    expect(head).not.toContain('favicon'); // only the public assets, not the app's other files
  });

  it("serves the app's hashed assets without a session: public code, same-origin only, never data", async () => {
    for (const [file, type] of [
      ['/app/assets/app.js', 'text/javascript; charset=utf-8'],
      ['/app/assets/app.css', 'text/css; charset=utf-8'],
    ] as const) {
      const asset = await raw(port, { path: file });
      expect(asset.status, file).toBe(200);
      expect(asset.headers['content-type'], file).toBe(type);
      expect(asset.headers['cross-origin-resource-policy'], file).toBe('same-origin');
      expect(asset.headers['x-content-type-options'], file).toBe('nosniff');
      expect(asset.headers['set-cookie'], file).toBeUndefined();
    }
    // Without a session: not the app's page (at any route, or as an extension-less asset), not
    // a source map, not a file outside assets/, not one reached by an encoded or dotted path.
    for (const attempt of [
      '/app/',
      '/app/index.html',
      '/app/breaches',
      '/app/assets/',
      '/app/assets/breaches',
      '/app/assets/app.js.map',
      '/app/assets/notes.txt',
      '/app/favicon.svg',
      '/app/assets/../index.html',
      '/app/assets/%2e%2e/index.html',
      '/app/assets/..%2findex.html',
      '/app/assets/%2e%2e%2f%2e%2e%2foutside.txt',
      '/app/assets/.hidden.js',
      '/app/assets/link-out.js',
      '/app/assets/alias.js',
    ]) {
      const response = await raw(port, { path: attempt });
      expect(response.status, attempt).not.toBe(200);
      expect(response.body, attempt).not.toContain('<title>app</title>');
      expect(response.body, attempt).not.toContain('must never be served');
    }
    // Those with the cookie are still the app's (the page's reload path).
    expect((await raw(port, { path: '/app/assets/app.js.map', headers: { cookie } })).status).toBe(200);
    // The session's doors stay shut without it: API calls and the event stream.
    const call = JSON.stringify({ type: 'request', id: 1, channel: 'auth-status', args: {} });
    expect((await raw(port, { method: 'POST', path: '/api/invoke', headers: { 'content-type': 'application/json' }, body: call })).status).toBe(401);
    expect((await raw(port, { path: '/api/events' })).status).toBe(401);
    // Only GET and HEAD.
    expect((await raw(port, { method: 'POST', path: '/app/assets/app.js' })).status).toBe(405);
  });

  it("refuses the app's assets to a wrong Host (DNS rebinding) and to other sites", async () => {
    for (const hostHeader of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, '127.0.0.1']) {
      const response = await raw(port, { path: '/app/assets/app.js', headers: { host: hostHeader } });
      expect(response.status, hostHeader).toBe(403);
      expect(response.body, hostHeader).not.toContain('console.log');
    }
    const foreign: Record<string, string>[] = [{ origin: 'https://evil.example' }, { origin: `http://127.0.0.1:${port + 1}` }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }];
    for (const headers of foreign) {
      const response = await raw(port, { path: '/app/assets/app.js', headers });
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(response.body, JSON.stringify(headers)).not.toContain('console.log');
    }
  });

  it('says so when the renderer is not built, instead of a page that could never load the app', async () => {
    const empty = path.join(dir, 'not-built');
    mkdirSync(empty, { recursive: true });
    const other = await startBrowserHost({ router: core.router, bus: core.bus, rendererDir: empty, secret: SECRET });
    try {
      const page = await raw(Number(new URL(other.origin).port), { path: '/' });
      expect(page.status).toBe(500);
      expect(page.body).toMatch(/page is missing: build the renderer/);
    } finally {
      await other.close();
    }
  });

  it('gives the session cookie only for a valid code or session, scoped and HttpOnly', async () => {
    expect((await raw(port, { method: 'POST', path: '/__session' })).status).toBe(401);
    expect((await raw(port, { method: 'POST', path: '/__session', headers: { 'x-monitor-secret': 'wrong' } })).status).toBe(401);
    expect((await raw(port, { method: 'POST', path: '/__session', headers: { 'x-monitor-code': 'wrong' } })).status).toBe(401);
    expect(cookie).not.toContain(SECRET);
    expect(cookie).not.toContain(SESSION);
    const session = await raw(port, { method: 'POST', path: '/__session', headers: { 'x-monitor-secret': SESSION } });
    expect(String(session.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);
  });

  it('serves the built renderer with the session, and nothing outside it', async () => {
    const index = await raw(port, { path: '/app/', headers: { cookie } });
    expect(index.status).toBe(200);
    expect(index.body).toContain('<title>app</title>');
    expect((await raw(port, { path: '/app/assets/app.js', headers: { cookie } })).status).toBe(200);
    for (const attempt of [
      '/app/../outside.txt',
      '/app/%2e%2e/outside.txt',
      '/app/..%2foutside.txt',
      '/app/assets/..%5c..%5coutside.txt',
      '/app/.hidden.js',
      '/outside.txt',
      '/app/assets/missing.js',
    ]) {
      const response = await raw(port, { path: attempt, headers: { cookie } });
      expect(response.status, attempt).not.toBe(200);
      expect(response.body, attempt).not.toContain('must never be served');
    }
  });

  it('refuses API calls without the session token, even with the cookie', async () => {
    const body = JSON.stringify({ type: 'request', id: 1, channel: 'auth-status', args: {} });
    expect((await raw(port, { method: 'POST', path: '/api/invoke', headers: { cookie, 'content-type': 'application/json' }, body })).status).toBe(401);
    expect((await raw(port, { method: 'POST', path: '/api/invoke', headers: { 'x-monitor-secret': 'wrong', 'content-type': 'application/json' }, body })).status).toBe(401);
    expect((await raw(port, { path: '/api/events', headers: { cookie } })).status).toBe(401);
  });

  it('answers API calls with the session token, and malformed ones with a clear error', async () => {
    const headers = { 'x-monitor-secret': SESSION, 'content-type': 'application/json', origin: host.origin };
    const ok = await raw(port, { method: 'POST', path: '/api/invoke', headers, body: JSON.stringify({ type: 'request', id: 7, channel: 'auth-status', args: {} }) });
    expect(JSON.parse(ok.body)).toMatchObject({ id: 7, ok: true, result: { state: 'signed-out' } });
    const bad = await raw(port, { method: 'POST', path: '/api/invoke', headers, body: '{not json' });
    expect(JSON.parse(bad.body)).toMatchObject({ ok: false, error: { code: 'malformed-message' } });
    const after = await raw(port, { method: 'POST', path: '/api/invoke', headers, body: JSON.stringify({ type: 'request', id: 8, channel: 'sync-status', args: {} }) });
    expect(JSON.parse(after.body)).toMatchObject({ id: 8, ok: true });
  });

  it('refuses a wrong Host (DNS rebinding), whatever else is right', async () => {
    for (const hostHeader of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, '127.0.0.1']) {
      const response = await raw(port, { path: '/api/events', headers: { host: hostHeader, 'x-monitor-secret': SESSION } });
      expect(response.status, hostHeader).toBe(403);
      expect((await raw(port, { path: '/', headers: { host: hostHeader } })).status, hostHeader).toBe(403);
    }
  });

  it('refuses a foreign Origin and a cross-site form post', async () => {
    const call = JSON.stringify({ type: 'request', id: 1, channel: 'auth-sign-out', args: { deleteLocalData: true } });
    const foreign = await raw(port, { method: 'POST', path: '/api/invoke', headers: { origin: 'https://evil.example', 'x-monitor-secret': SESSION, 'content-type': 'application/json' }, body: call });
    expect(foreign.status).toBe(403);
    const form = await raw(port, {
      method: 'POST',
      path: '/api/invoke',
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'type=request&channel=auth-sign-out',
    });
    expect(form.status).toBe(403);
    const sameSiteOtherPort = await raw(port, { method: 'POST', path: '/__session', headers: { origin: `http://127.0.0.1:${port + 1}`, 'x-monitor-secret': SESSION } });
    expect(sameSiteOtherPort.status).toBe(403);
    const noHeaderFormPost = await raw(port, { method: 'POST', path: '/api/invoke', headers: { cookie, 'content-type': 'text/plain' }, body: call });
    expect(noHeaderFormPost.status).toBe(401);
  });

  /** Reads an event stream until `until` matches what came, then closes it; resolves with the text. */
  function readStream(until: RegExp, then?: () => void): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      let text = '';
      const req = request({ host: '127.0.0.1', port, path: '/api/events', headers: { 'x-monitor-secret': SESSION } }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (until.test(text)) {
            req.destroy();
            resolve(text);
          }
        });
        then?.();
      });
      req.on('error', (error) => (until.test(text) ? resolve(text) : reject(error)));
      req.end();
    });
  }

  const helloMark = (text: string) => (JSON.parse(/^event: hello\ndata: (.*)\n\n/.exec(text)?.[1] ?? 'null') as { mark: string } | null)?.mark;

  async function batchOf(requests: unknown[]): Promise<{ status: number; body: string }> {
    return raw(port, { method: 'POST', path: '/api/batch', headers: { 'x-monitor-secret': SESSION, 'content-type': 'application/json' }, body: JSON.stringify({ requests }) });
  }

  it('answers a batch of requests in one round trip, in order, each as /api/invoke would, with the event mark before them', async () => {
    const answer = await batchOf([
      { type: 'request', id: 1, channel: 'auth-status', args: {} },
      { type: 'request', id: 2, channel: 'no-such-channel', args: {} },
      { type: 'request', id: 3, channel: 'sync-status', args: {} },
      'not an envelope',
    ]);
    expect(answer.status).toBe(200);
    const { mark, responses } = JSON.parse(answer.body) as { mark: string; responses: { id: unknown; ok: boolean; error?: { code: string } }[] };
    expect(mark).toMatch(/^[\w-]+\.\d+$/);
    expect(responses.map((response) => [response.id, response.ok, response.error?.code])).toEqual([
      [1, true, undefined],
      [2, false, 'unknown-channel'],
      [3, true, undefined],
      [null, false, 'malformed-message'],
    ]);
  });

  it('refuses a batch that is not a short list of requests, or comes without the session token', async () => {
    const envelope = { type: 'request', id: 1, channel: 'auth-status', args: {} };
    for (const body of [{}, { requests: [] }, { requests: envelope }, { requests: Array.from({ length: 17 }, () => envelope) }, { requests: [envelope], more: 1 }]) {
      const refused = await raw(port, { method: 'POST', path: '/api/batch', headers: { 'x-monitor-secret': SESSION, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(refused.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(refused.body).toMatch(/Expected \{"requests": \[1 to 16 request envelopes\]\}: \S/);
    }
    expect((await raw(port, { method: 'POST', path: '/api/batch', headers: { 'x-monitor-secret': SESSION, 'content-type': 'application/json' }, body: '{not json' })).status).toBe(400);
    expect(
      (await raw(port, { method: 'POST', path: '/api/batch', headers: { 'x-monitor-secret': SESSION, 'content-type': 'text/plain' }, body: JSON.stringify({ requests: [envelope] }) })).status,
    ).toBe(415);
    expect((await raw(port, { method: 'POST', path: '/api/batch', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ requests: [envelope] }) })).status).toBe(401);
    expect(
      (
        await raw(port, {
          method: 'POST',
          path: '/api/batch',
          headers: { 'x-monitor-secret': SESSION, 'content-type': 'application/json', origin: 'https://evil.example' },
          body: JSON.stringify({ requests: [envelope] }),
        })
      ).status,
    ).toBe(403);
  });

  it("opens each event stream with a hello carrying the mark it started at: equal to a batch's when no event came between", async () => {
    const envelope = { type: 'request', id: 1, channel: 'auth-status', args: {} };
    const before = (JSON.parse((await batchOf([envelope])).body) as { mark: string }).mark;
    const quiet = await readStream(/^event: hello\n.*\n\n/);
    expect(helloMark(quiet)).toBe(before);
    // An event after the batch: the next stream starts at another mark, and hears what comes after its hello.
    const moved = await readStream(/event: sync-changed/, () => core.signal('offline'));
    core.signal('online');
    const after = helloMark(moved);
    expect(after).toBeDefined();
    expect(moved.indexOf('event: hello')).toBe(0);
    const next = (JSON.parse((await batchOf([envelope])).body) as { mark: string }).mark;
    expect(next).not.toBe(before);
    // Same host instance, a count that only grows.
    const [instance, count] = before.split('.');
    expect(next.split('.')[0]).toBe(instance);
    expect(Number(next.split('.')[1])).toBeGreaterThan(Number(count));
  });

  it('streams core events to a page that holds a session', async () => {
    const events: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/api/events', headers: { 'x-monitor-secret': SESSION } }, (res) => {
        expect(res.headers['content-type']).toMatch(/text\/event-stream/);
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          events.push(chunk);
          if (events.join('').includes('event: sync-changed')) {
            req.destroy();
            resolve();
          }
        });
        core.signal('offline');
      });
      req.on('error', (error) => (events.join('').includes('sync-changed') ? resolve() : reject(error)));
      req.end();
    });
    expect(events.join('')).toMatch(/event: sync-changed\ndata: \{.*"online":false/);
  });

  it('hands every message between page and core to onTraffic when asked: request bodies, answers, event frames', async () => {
    const traffic: { direction: string; text: string }[] = [];
    const tapped = await startBrowserHost({
      router: core.router,
      bus: core.bus,
      rendererDir: path.join(dir, 'renderer'),
      secret: SECRET,
      onTraffic: (direction, text) => traffic.push({ direction, text }),
    });
    try {
      const tappedPort = Number(new URL(tapped.origin).port);
      const session = (JSON.parse((await raw(tappedPort, { method: 'POST', path: '/__session', headers: { 'x-monitor-code': codeOf(tapped.launchUrl()) } })).body) as { session: string }).session;
      const body = JSON.stringify({ type: 'request', id: 3, channel: 'auth-status', args: {} });
      const answer = await raw(tappedPort, { method: 'POST', path: '/api/invoke', headers: { 'x-monitor-secret': session, 'content-type': 'application/json', origin: tapped.origin }, body });
      expect(traffic).toEqual([
        { direction: 'page-to-core', text: body },
        { direction: 'core-to-page', text: answer.body },
      ]);
      const socket = connect({ host: '127.0.0.1', port: tappedPort });
      socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${tappedPort}\r\nx-monitor-secret: ${session}\r\n\r\n`);
      await eventually('the stream to open', () => traffic.some((message) => message.text.startsWith('event: hello')));
      core.signal('online');
      await eventually('the event to be seen', () => traffic.some((message) => message.direction === 'core-to-page' && message.text.startsWith('event: sync-changed\ndata: ')));
      socket.destroy();
    } finally {
      await tapped.close();
    }
  });

  /** An event stream on a raw socket: resolves once the host's hello arrived; the socket is left as given. */
  function openStream(): Promise<{ socket: Socket; status: number; received: () => number }> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port });
      let text = '';
      let bytes = 0;
      const onData = (chunk: Buffer) => {
        bytes += chunk.length;
        text += chunk.toString('latin1');
        const status = Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0);
        if (status === 200 && text.includes('event: hello')) resolve({ socket, status, received: () => bytes });
        else if (status !== 0 && status !== 200) resolve({ socket, status, received: () => bytes });
      };
      socket.on('data', onData);
      socket.on('error', reject);
      socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-monitor-secret: ${SESSION}\r\n\r\n`);
    });
  }

  it('cuts an event stream whose page stopped reading once its unsent events pass the bound, and lets it go (issue 35)', async () => {
    const stream = await openStream();
    expect(stream.status).toBe(200);
    const withStream = core.bus.listenerCount;
    const closed = new Promise<void>((resolve) => stream.socket.once('close', () => resolve()));
    // The page stops reading (a suspended tab): nothing more leaves the kernel's buffers.
    stream.socket.pause();
    const event = { requestId: 'paused-reader', event: { type: 'delta' as const, text: 'x'.repeat(256 * 1024) } };
    const sent = 8 * Math.ceil(MAX_STREAM_BUFFER_BYTES / (256 * 1024));
    for (let i = 0; i < sent; i++) core.bus.emit('search-event', event);
    // Without a bound every one of those would stay queued for the stream, and its subscription with it.
    await eventually('the paused stream detached from the bus', () => core.bus.listenerCount < withStream, 5000);
    // Read again, the page gets what the kernel held and then the end: the host cut the stream.
    stream.socket.resume();
    await Promise.race([closed, delay(5000).then(() => Promise.reject(new Error('the stream was not cut: it is still open')))]);
    expect(stream.received()).toBeLessThan(sent * 256 * 1024);
  });

  it(`refuses an event stream past ${MAX_EVENT_STREAMS} open ones with 503, and opens one again once another closes (issue 35)`, async () => {
    const open: Socket[] = [];
    try {
      let refused: number | undefined;
      for (let i = 0; i <= MAX_EVENT_STREAMS && refused === undefined; i++) {
        const stream = await openStream();
        open.push(stream.socket);
        if (stream.status !== 200) refused = stream.status;
      }
      expect(refused).toBe(503);
      open.shift()!.destroy();
      await eventually(
        'a stream opens once another closed',
        async () => {
          const again = await openStream();
          open.push(again.socket);
          return again.status === 200;
        },
        5000,
      );
    } finally {
      for (const socket of open) socket.destroy();
    }
  });
});
