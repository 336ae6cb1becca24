// The streaming read's own timing, on the routes alone (a real HTTP server and SQLite store):
// keep-alive while idle, nothing left running once the client goes, and an idle stream whose
// credential is revoked ending at its next keep-alive (docs/security.md, "Known residue").
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../server/log.ts';
import { createRtdbRoutes, type RtdbMount } from '../../../server/rtdb/routes.ts';
import { SqliteRtdbStore } from '../../../server/rtdb/SqliteRtdbStore.ts';
import { openEventStream } from '../../support/eventStream.ts';
import { eventually } from '../../support/waitFor.ts';

let dir: string;
let store: SqliteRtdbStore;
let handler: RtdbMount;
let server: Server;
let origin: string;
const watchers = () => store.watcherCount;
/** The legacy database secrets that hold right now (revoking one is deleting it here). */
const liveSecrets = new Set<string>();

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'rtdb-stream-'));
  store = new SqliteRtdbStore(path.join(dir, 'rtdb.db'));
  handler = await createRtdbRoutes({
    store,
    logger: createLogger({ level: 'silent' }),
    keepAliveMs: 25,
    idTokens: undefined,
    isAccountActive: () => true,
    serviceAccounts: undefined,
    findLiveSecret: async (secret) => (liveSecrets.has(secret) ? 'secret-1' : undefined),
  });
  // The access decision first, then the handler: the order the service's router keeps.
  server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://localhost');
    void handler
      .access(req, url)
      .then((grant) => handler.handle(req, res, url, grant))
      .catch((error: unknown) => {
        if (!handler.refuse(res, error)) res.destroy();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  handler.dispose();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a streaming read', () => {
  it('sends keep-alive while idle and stops following the store once the client goes', async () => {
    expect(watchers()).toBe(1); // the routes' own (rules)
    const abort = new AbortController();
    const response = await fetch(`${origin}/rtdb/catalog.json`, { headers: { accept: 'text/event-stream' }, signal: abort.signal });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while ((text.match(/event: keep-alive\ndata: null\n\n/g) ?? []).length < 2) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before two keep-alives: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
    expect(text.startsWith('event: put\ndata: {"path":"/","data":null}\n\n')).toBe(true);
    expect(watchers()).toBe(2);
    abort.abort();
    await eventually('the stream to stop watching the store', () => watchers() === 1);
  });

  it('a disposed mount follows the store no more (its rules watcher goes with it)', async () => {
    const other = await createRtdbRoutes({
      store,
      logger: createLogger({ level: 'silent' }),
      idTokens: undefined,
      isAccountActive: () => true,
      serviceAccounts: undefined,
      findLiveSecret: async () => undefined,
    });
    expect(watchers()).toBe(2);
    other.dispose();
    other.dispose();
    expect(watchers()).toBe(1);
  });

  it('an idle stream whose credential is revoked ends with auth_revoked at its next keep-alive, with no change to send', async () => {
    liveSecrets.add('idle-secret');
    const stream = await openEventStream(`${origin}/rtdb/catalog.json?auth=idle-secret`);
    try {
      expect(await stream.next('the first put')).toEqual({ event: 'put', data: { path: '/', data: null } });
      liveSecrets.delete('idle-secret');
      expect(await stream.next('auth_revoked at the next keep-alive')).toEqual({ event: 'auth_revoked', data: 'credential is no longer valid' });
    } finally {
      stream.close();
    }
    await eventually('the ended stream to stop watching the store', () => watchers() === 1);
  });
});
