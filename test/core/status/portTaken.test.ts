// Another program holds the service's port (6060 in `npm start`; a free port here): what the
// person reads must name the port, the service that refused and what to do. Real core, a real
// HTTP server standing in for "another program" (it answers every request with its own 404 page).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type Core } from '../../../electron/core/app.ts';
import { tempDir } from '../auth/harness.ts';

describe('the service port held by another program', () => {
  let other: Server;
  let port: number;
  let core: Core;
  const call = async <T>(channel: string, args: unknown = {}) => {
    const response = await core.router.dispatch({ type: 'request', id: 1, channel, args });
    if (!response.ok) throw new Error(`${channel}: ${response.error.code} ${response.error.message}`);
    return response.result as T;
  };

  beforeAll(async () => {
    other = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Not Found</h1>');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    port = (other.address() as AddressInfo).port;
    core = await startCore({
      dataDir: tempDir('bm-core-port'),
      keychain: false,
      config: { issuer: `http://127.0.0.1:${port}/oidc`, apiBaseUrl: `http://127.0.0.1:${port}/api/v1` },
      host: { openExternal: async () => {}, notify: () => {}, setTrayState: () => {} },
    });
  });
  afterAll(async () => {
    await core?.close();
    await new Promise<void>((resolve) => other.close(() => resolve()));
  });

  it('sign-in says which service refused, why, and what to do', async () => {
    const response = await core.router.dispatch({ type: 'request', id: 1, channel: 'auth-sign-in', args: {} });
    expect(response.ok).toBe(false);
    const message = response.ok ? '' : response.error.message;
    // Which service and what it answered…
    expect(message).toContain(`http://127.0.0.1:${port}/oidc`);
    expect(message).toContain('answered HTTP 404');
    // …the port, and what to do.
    expect(message).toContain(`Another program is probably using port ${port}`);
    expect(message).toMatch(/quit it, or start the breach-alert service on a free port \(for example BREACH_SERVICE_PORT=\d+ npm start\)/);
    expect(message).toContain('Settings → Service');
    // Never a library's code in place of words.
    expect(message).not.toMatch(/OAUTH_|unexpected HTTP response status code/);
    expect(await call('auth-status')).toMatchObject({ state: 'signed-out' });
  });

  it('nothing listening: says nothing answered there and how to start the service', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const free = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(free));
      });
    });
    await call('settings-set', { issuer: `http://127.0.0.1:${closed}/oidc`, serviceUrl: `http://127.0.0.1:${closed}/api/v1` });
    const response = await core.router.dispatch({ type: 'request', id: 1, channel: 'auth-sign-in', args: {} });
    const message = response.ok ? '' : response.error.message;
    expect(message).toContain(`could not reach the identity provider at http://127.0.0.1:${closed}`);
    expect(message).toContain(`Start the breach-alert service on port ${closed} (npm start does)`);
  });
});
