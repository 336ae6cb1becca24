// A start of the reference service that fails part-way closes everything it had opened: no file
// of its data folder stays open, its port is free again, and the next start in the same folder
// works. The service keeps what it opens in one store (server/app.ts), disposed once, whether the
// start fails or the service is closed; these failures come at three depths of the start.
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startService } from '../../server/app.ts';
import { parseServiceConfig } from '../../server/config.ts';
import { createLogger } from '../../server/log.ts';
import { ServiceParts } from '../../server/parts/ServiceParts.ts';
import { RTDB_FILE } from '../../server/rtdb/detailsFeed.ts';
import { SqliteRtdbStore } from '../../server/rtdb/SqliteRtdbStore.ts';
import { freePort, isListening } from '../core/auth/harness.ts';
import { KEY } from '../support/hibpService.ts';
import { HibpStandIn } from '../support/hibpStandIn.ts';

const dirs: string[] = [];
const blockers: Server[] = [];

afterEach(async () => {
  for (const blocker of blockers.splice(0)) await new Promise((resolve) => blocker.close(resolve));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'bm-start-cleanup-'));
  dirs.push(dir);
  return dir;
}

/** Files of `dir` this process holds open (Linux: /proc/self/fd), by name. */
function openFilesIn(dir: string): string[] {
  const open: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed while listing (the directory handle itself, say)
    }
    if (target.startsWith(dir + path.sep)) open.push(path.relative(dir, target));
  }
  return open.sort();
}

async function listenOn(port: number): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  blockers.push(server);
  return server;
}

/** Starts and closes the service in `dir`: what a person does after fixing the cause. */
async function startsAgain(dir: string): Promise<void> {
  const service = await startService({ port: 0, dataDir: dir, dev: true, logLevel: 'silent' });
  await service.close();
  expect(openFilesIn(dir)).toEqual([]);
}

describe.skipIf(process.platform !== 'linux')('a start that fails part-way', () => {
  it('closes its stores when the port is taken (the failure comes after the databases opened)', async () => {
    const dir = dataDir();
    const port = await freePort();
    await listenOn(port);
    await expect(startService({ port, host: '127.0.0.1', dataDir: dir, dev: true, logLevel: 'silent' })).rejects.toThrow(/EADDRINUSE/);
    expect(openFilesIn(dir)).toEqual([]);
    await startsAgain(dir);
  });

  it('asks nothing of Have I Been Pwned when the port is taken: the breach data starts only once the service listens', async () => {
    const standIn = await HibpStandIn.start({ keys: { [KEY]: { rpm: 1000 } } });
    try {
      const dir = dataDir();
      const port = await freePort();
      await listenOn(port);
      await expect(startService({ port, host: '127.0.0.1', dataDir: dir, hibpApiKey: KEY, hibpUrl: standIn.url, logLevel: 'silent' })).rejects.toThrow(/EADDRINUSE/);
      expect(standIn.requests).toEqual([]);
      expect(openFilesIn(dir)).toEqual([]);
    } finally {
      await standIn.close();
    }
  });

  it('stops listening and closes its stores when the sign-in provider cannot be discovered (after it listened)', async () => {
    const dir = dataDir();
    const port = await freePort();
    const nobody = await freePort();
    await expect(startService({ port, host: '127.0.0.1', dataDir: dir, issuer: `http://127.0.0.1:${nobody}/oidc`, logLevel: 'silent' })).rejects.toThrow();
    expect(openFilesIn(dir)).toEqual([]);
    expect(await isListening(port)).toBe(false);
    await startsAgain(dir);
  });

  it('closes everything, identity provider and breach data included, when the stored database rules cannot be read (the last step)', async () => {
    const dir = dataDir();
    const rtdb = new SqliteRtdbStore(path.join(dir, RTDB_FILE));
    await rtdb.putSetting('rules', '{"rules": '); // cut short: not JSON
    await rtdb.close();
    const port = await freePort();
    await expect(startService({ port, host: '127.0.0.1', dataDir: dir, dev: true, logLevel: 'silent' })).rejects.toThrow(SyntaxError);
    expect(openFilesIn(dir)).toEqual([]);
    expect(await isListening(port)).toBe(false);
    // Mended, the folder starts as usual.
    const mended = new SqliteRtdbStore(path.join(dir, RTDB_FILE));
    await mended.putSetting('rules', '{"rules": {}}');
    await mended.close();
    await startsAgain(dir);
  });
});

describe.skipIf(process.platform !== 'linux')('the parts of a service that closed', () => {
  it('closes a part asked for after the close at once, and says so to whoever asked', async () => {
    const dir = dataDir();
    const parts = new ServiceParts(parseServiceConfig({ port: 0, host: '127.0.0.1', dataDir: dir, dev: true, logLevel: 'silent' }), createLogger({ level: 'silent' }), {});
    await parts.storage();
    expect(openFilesIn(dir)).not.toEqual([]);
    await parts.close();
    expect(openFilesIn(dir)).toEqual([]);
    // The port, asked for only now, is not left listening.
    await expect(parts.listening()).rejects.toThrow('the service closed while one of its parts was opening');
    // A part already open is the same part (asked again, it does not open twice).
    expect(await parts.storage()).toBe(await parts.storage());
    const disposed: string[] = [];
    parts.keep({ dispose: () => void disposed.push('mount') });
    expect(disposed).toEqual(['mount']);
  });
});
