import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../../electron/core/auth/secrets/MemorySecretStore.ts';
import { RemoteGraphEndpoints } from '../../../electron/core/graph/RemoteGraphEndpoints.ts';
import { startFakeGraphServer, type FakeGraphServer } from './fakeGraphServer.ts';

let server: FakeGraphServer | undefined;
const endpoints: RemoteGraphEndpoints[] = [];
afterEach(async () => {
  for (const remote of endpoints.splice(0)) remote.close();
  await server?.close();
  server = undefined;
});

function remotes() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bm-remotes-'));
  const remote = new RemoteGraphEndpoints({ dataDir, secrets: new MemorySecretStore() });
  endpoints.push(remote);
  return { dataDir, remote };
}

const ANSWER = { data: { Breach: { arcs: { typeOf: { nodes: [{ dcid: 'Thing' }] } } } } };

describe('RemoteGraphEndpoints', () => {
  it('opens nothing until a remote endpoint is used', async () => {
    const { dataDir, remote } = remotes();
    expect(await remote.view(undefined)).toEqual({ hasKey: false });
    expect(existsSync(path.join(dataDir, 'graph-cache.db'))).toBe(false);
  });

  it('keeps one client per URL, its key in the secret store, and never shows the key', async () => {
    const { dataDir, remote } = remotes();
    expect(remote.client('https://graph.example')).toBe(remote.client('https://graph.example'));
    expect(remote.client('https://other.example')).not.toBe(remote.client('https://graph.example'));
    expect(existsSync(path.join(dataDir, 'graph-cache.db'))).toBe(true);
    expect(await remote.view('https://graph.example')).toEqual({ url: 'https://graph.example', hasKey: false });
    await remote.client('https://graph.example').setApiKey('secret-key');
    const view = await remote.view('https://graph.example');
    expect(view).toEqual({ url: 'https://graph.example', hasKey: true });
    expect(JSON.stringify(view)).not.toContain('secret-key');
  });

  it('answers a query from the cache when the endpoint is gone', async () => {
    server = await startFakeGraphServer(() => ({ status: 200, body: ANSWER }));
    const { remote } = remotes();
    const client = remote.client(server.url);
    await client.setApiKey('k');
    expect(await client.query({ nodes: ['Breach'], property: '->typeOf' })).toMatchObject({ source: 'network' });
    await server.close();
    server = undefined;
    expect(await remote.client(client.endpoint.replace(/\/v2\/node$/, '')).query({ nodes: ['Breach'], property: '->typeOf' })).toMatchObject({ source: 'cache', response: ANSWER });
  });
});
