// The exposure rules: what is safe on loopback (any-password sign-in, token minting, dev-key)
// never listens where another machine can reach it, and going beyond loopback is announced.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startService } from '../../../server/app.ts';
import { ConfigError, isLoopbackHost, parseCommandLine, parseServiceConfig } from '../../../server/config.ts';
import { createLogger } from '../../../server/log.ts';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'svc-exposure-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('listening beyond loopback', () => {
  it.each(['0.0.0.0', '::', '192.168.1.20'])('on %s refuses --dev with a sentence saying why', (host) => {
    const parse = () => parseServiceConfig({ host, dataDir, dev: true, issuer: 'https://id.example.org' });
    expect(parse).toThrow(ConfigError);
    expect(parse).toThrow(/dev: the development surface mints tokens for any subject, so it runs only on a loopback address/);
  });

  it.each(['0.0.0.0', '::', '192.168.1.20'])('on %s requires --issuer: the built-in provider accepts any password', (host) => {
    expect(() => parseServiceConfig({ host, dataDir })).toThrow(/issuer: listening on .* needs --issuer .*accepts any password and runs only on loopback/);
  });

  it('refuses the same from the command line and environment', () => {
    expect(() => parseCommandLine(['--host', '0.0.0.0', '--data', dataDir], {})).toThrow(/needs --issuer/);
    expect(() => parseCommandLine(['--data', dataDir, '--issuer', 'https://id.example.org'], { BREACH_SERVICE_HOST: '0.0.0.0', BREACH_SERVICE_DEV: '1' })).toThrow(/dev:/);
  });

  it('is allowed with an external issuer', () => {
    expect(parseServiceConfig({ host: '0.0.0.0', dataDir, issuer: 'https://id.example.org' })).toMatchObject({ host: '0.0.0.0', dev: false });
  });

  it('knows loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', '::1', '[::1]', 'localhost', 'LocalHost', '::ffff:127.0.0.1']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', 'localhost.example', '127.0.0.1.nip.io']) expect(isLoopbackHost(host), host).toBe(false);
  });

  it('warns, naming what is exposed, and mounts neither the development provider nor dev-key', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const service = await startService(
      { host: '0.0.0.0', port: 0, dataDir, issuer: 'https://id.example.org', jwksUrl: 'https://id.example.org/jwks', logLevel: 'warn', demo: true },
      { logger: createLogger({ level: 'warn', destination }) },
    );
    try {
      expect(service.identity).toBeUndefined();
      expect(service.issuer).toBe('https://id.example.org');
      const warning = lines.map((line) => JSON.parse(line) as { level: number; msg: string; exposed?: string[] }).find((entry) => /listening on 0\.0\.0\.0/.test(entry.msg));
      expect(warning, lines.join('')).toBeDefined();
      expect(warning!.msg).toMatch(/other machines can reach the breach API/);
      expect(warning!.exposed).toContain('/api/v1');
      // No graph key was given, and dev-key exists only under --dev, which is loopback-only.
      expect(warning!.exposed).not.toContain('/v2/node');
      const port = new URL(service.url).port;
      const graph = await fetch(`http://127.0.0.1:${port}/v2/node?key=dev-key&nodes=Adobe&property=->*`);
      expect(graph.status).toBe(401);
      expect((await fetch(`http://127.0.0.1:${port}/oidc/.well-known/openid-configuration`)).status).toBe(404);
    } finally {
      await service.close();
    }
  });
});
