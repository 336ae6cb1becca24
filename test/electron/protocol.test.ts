import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fake, resetElectron } from './fakeElectron.ts';

vi.mock('electron', async () => (await import('./fakeElectron.ts')).electron);

const { APP_ENTRY_URL, CONTENT_SECURITY_POLICY, createAppProtocolHandler, registerAppProtocol, registerAppScheme, relativePathOf } = await import('../../electron/main/protocol.ts');

let base: string;
let rendererDir: string;
let handler: (request: Request) => Promise<Response>;

beforeAll(() => {
  base = mkdtempSync(path.join(os.tmpdir(), 'app-protocol-'));
  rendererDir = path.join(base, 'renderer');
  mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Breach Monitor</title>');
  writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(path.join(rendererDir, 'assets', 'app.css'), 'body{}');
  writeFileSync(path.join(rendererDir, 'assets', 'font.woff2'), Buffer.from([0x77, 0x4f, 0x46, 0x32]));
  writeFileSync(path.join(base, 'secret.txt'), 'outside');
  mkdirSync(path.join(base, 'renderer-evil'));
  writeFileSync(path.join(base, 'renderer-evil', 'x.js'), 'evil');
  symlinkSync(path.join(base, 'secret.txt'), path.join(rendererDir, 'assets', 'link.txt'));
  handler = createAppProtocolHandler(rendererDir);
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

const get = (url: string, method = 'GET') => handler(new Request(url, { method }));

describe('app:// scheme', () => {
  beforeEach(() => resetElectron());

  it('is registered as standard, secure and fetch-capable, before ready', () => {
    resetElectron({ ready: false });
    registerAppScheme();
    expect(fake().protocol.privileged).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } }]);
  });

  it('cannot be registered once the app is ready, as Electron refuses it', () => {
    expect(() => registerAppScheme()).toThrow('protocol.registerSchemesAsPrivileged should be called before app is ready');
  });

  it('cannot be handled before the app is ready', () => {
    resetElectron({ ready: false });
    expect(() => registerAppProtocol(rendererDir)).toThrow('Session can only be received when app is ready');
  });

  it('is handled by the renderer-folder handler', async () => {
    registerAppProtocol(rendererDir);
    const registered = fake().protocol.handlers.get('app')!;
    const response = await registered(new Request(APP_ENTRY_URL));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>Breach Monitor</title>');
  });
});

describe('app:// handler', () => {
  it('serves index.html for the root and by name, with its type and the CSP', async () => {
    for (const url of ['app://bundle/', 'app://bundle/index.html']) {
      const response = await get(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('serves assets with their content types', async () => {
    expect((await get('app://bundle/assets/app.js')).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await get('app://bundle/assets/app.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await get('app://bundle/assets/font.woff2')).headers.get('content-type')).toBe('font/woff2');
    expect(await (await get('app://bundle/assets/app.js?v=1#x')).text()).toBe('console.log(1)');
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await get('app://bundle/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await get('app://bundle/index.html', 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  });

  it.each([
    ['unknown host', 'app://other/index.html'],
    ['host with port', 'app://bundle:8080/index.html'],
    ['dot segments', 'app://bundle/../secret.txt'],
    ['encoded dot segments', 'app://bundle/%2e%2e/secret.txt'],
    ['encoded slash', 'app://bundle/assets%2f..%2f..%2fsecret.txt'],
    ['encoded backslash', 'app://bundle/..%5csecret.txt'],
    ['double-encoded dots', 'app://bundle/%252e%252e/secret.txt'],
    ['NUL', 'app://bundle/index.html%00.js'],
    ['malformed escape', 'app://bundle/%E0%A4%A'],
    ['sibling folder with the same prefix', 'app://bundle/../renderer-evil/x.js'],
    ['symlink leading out', 'app://bundle/assets/link.txt'],
    ['a folder', 'app://bundle/assets'],
    ['a missing file', 'app://bundle/nope.js'],
    ['another scheme', 'https://bundle/index.html'],
  ])('refuses %s with 404 and the CSP', async (_name, url) => {
    const response = await get(url);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(await response.text()).not.toContain('outside');
  });

  it('maps URLs to relative paths only inside the bundle', () => {
    expect(relativePathOf('app://bundle/')).toBe('index.html');
    expect(relativePathOf('app://bundle/assets/a%20b.js')).toBe('assets/a b.js');
    expect(relativePathOf('app://bundle/a/%2e%2e/%2e%2e/x')).toBe('x');
    expect(relativePathOf('app://bundle/C:%5cwindows')).toBeUndefined();
    expect(relativePathOf('app://user:pw@bundle/index.html')).toBeUndefined();
    expect(relativePathOf('not a url')).toBeUndefined();
  });
});

describe('Content-Security-Policy', () => {
  it('is the strict policy of the design', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
  });

  it('passes the CSP evaluator Electronegativity uses, with no high or medium finding', () => {
    // tools/electronegativity.ts leaves CSP_GLOBAL_CHECK out because it cannot see response headers.
    const require = createRequire(import.meta.url);
    const csp = require('@doyensec/csp-evaluator') as {
      CspParser: new (raw: string) => { csp: unknown };
      CspEvaluator: new (csp: unknown, version: unknown) => { evaluate(): { severity: number; directive: string }[] };
      Version: { CSP3: unknown };
      severities: Record<string, number>;
    };
    const findings = new csp.CspEvaluator(new csp.CspParser(CONTENT_SECURITY_POLICY).csp, csp.Version.CSP3).evaluate();
    const serious = findings.filter((finding) => finding.severity <= csp.severities.HIGH_MAYBE!);
    expect(serious).toEqual([]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline|\*/);
  });
});
