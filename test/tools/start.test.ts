// `npm start` where Electron is missing (here): the browser host, the core and the reference
// service as a process of its own. Run as a person would (`node tools/start.ts`), watching what
// it prints.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureRendererBuilt } from '../e2e/harness.ts';
import { freePort, tempDir } from '../core/auth/harness.ts';
import { portTakenMessage } from '../../tools/referenceService.ts';
import { eventually } from '../support/waitFor.ts';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const root = path.resolve(import.meta.dirname, '..', '..');

interface Started {
  child: ChildProcess;
  output(): string;
  /** Resolves with the first match of `pattern` in what it printed. */
  waitFor(pattern: RegExp, what: string): Promise<RegExpMatchArray>;
  stop(): Promise<void>;
}

const running: Started[] = [];
const cleanup: (() => void)[] = [];

function start(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ['tools/start.ts'], {
    cwd: root,
    env: { ...process.env, CI: '1', BREACH_MONITOR_NO_BROWSER: '1', BREACH_MONITOR_SKIP_BUILD: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    text += chunk.toString();
    for (const waiter of waiters) waiter();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const started: Started = {
    child,
    output: () => text,
    waitFor(pattern, what) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`npm start never printed ${what}; it printed:\n${text}`));
        }, 30_000);
        const check = () => {
          const match = pattern.exec(text);
          if (!match) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(match);
        };
        waiters.add(check);
        check();
        void exited.then(() => {
          if (waiters.has(check)) {
            clearTimeout(timer);
            waiters.delete(check);
            reject(new Error(`npm start ended before printing ${what}; it printed:\n${text}`));
          }
        });
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  running.push(started);
  return started;
}

async function isServiceAt(port: number): Promise<boolean> {
  try {
    const index = (await (await fetch(`http://127.0.0.1:${port}/`)).json()) as { service?: string };
    return index.service === 'breach-alert';
  } catch {
    return false;
  }
}

beforeAll(() => {
  ensureRendererBuilt();
}, 120_000);

afterEach(async () => {
  await Promise.all(running.splice(0).map((started) => started.stop()));
  for (const undo of cleanup.splice(0)) undo();
});

describe('npm start without Electron', () => {
  it('when another program holds the service port, says which port and how to move it, and starts anyway', async () => {
    const other: Server = createServer((_req, res) => res.end('someone else'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => other.close());
    const port = (other.address() as AddressInfo).port;
    const data = tempDir('bm-start');
    cleanup.push(() => rmSync(data, { recursive: true, force: true }));

    const app = start({ BREACH_SERVICE_PORT: String(port), BREACH_MONITOR_DATA: data });
    const [, openUrl] = await app.waitFor(/Open (http:\/\/127\.0\.0\.1:\d+)\/#code=\S+/, 'the address to open');
    expect(app.output()).toContain(portTakenMessage(port));
    expect(portTakenMessage(port)).toMatch(new RegExp(`Port ${port} .*BREACH_SERVICE_PORT`));
    const page = await fetch(new URL('/', openUrl!));
    expect(page.status).toBe(200);
    expect(app.output()).not.toMatch(/Reference service:/);
  }, 60_000);

  it('refuses a service port that is not a port, naming the variable', async () => {
    const data = tempDir('bm-start');
    cleanup.push(() => rmSync(data, { recursive: true, force: true }));
    const app = start({ BREACH_SERVICE_PORT: 'sixty', BREACH_MONITOR_DATA: data });
    const code = await new Promise((resolve) => app.child.once('exit', resolve));
    expect(code).toBe(1);
    expect(app.output()).toContain('BREACH_SERVICE_PORT must be a port number from 1 to 65535, not "sixty".');
  });

  it('runs the service as its own process, and a restarted app keeps its address', async () => {
    let servicePort: number;
    do servicePort = await freePort();
    while (servicePort === 6060);
    const data = tempDir('bm-start');
    cleanup.push(() => rmSync(data, { recursive: true, force: true }));
    const env = { BREACH_SERVICE_PORT: String(servicePort), BREACH_MONITOR_DATA: data };

    const first = start(env);
    const [, openUrl] = await first.waitFor(/Open (http:\/\/127\.0\.0\.1:\d+)\/#code=\S+/, 'the address to open');
    const [, pid] = await first.waitFor(/Reference service: \S+ \(process (\d+);/, 'the service process');
    expect(Number(pid)).not.toBe(first.child.pid);
    expect(await isServiceAt(servicePort)).toBe(true);

    // Stopped alone, the service goes; the app stays and says how to start it again.
    process.kill(Number(pid), 'SIGTERM');
    await first.waitFor(/The reference service stopped .* the app keeps running\. Start it again with npm run server -- --port \d+/, 'that the service stopped');
    expect(await isServiceAt(servicePort)).toBe(false);
    expect((await fetch(new URL('/', openUrl!))).status).toBe(200);
    await first.stop();

    // Started again: the same origin (port, and the secret its sessions are signed with), so a tab
    // left open reconnects; a new service.
    const second = start(env);
    const [, again] = await second.waitFor(/Open (http:\/\/127\.0\.0\.1:\d+)\/#code=\S+/, 'the address to open');
    expect(again).toBe(openUrl);
    await second.waitFor(/Reference service: /, 'the service');
    expect(await isServiceAt(servicePort)).toBe(true);
    await second.stop();
    expect(await isServiceAt(servicePort)).toBe(false);
  }, 90_000);

  it('a saved choice of Have I Been Pwned whose key is not kept starts the service without --dev and without a key: no invented data', async () => {
    let servicePort: number;
    do servicePort = await freePort();
    while (servicePort === 6060);
    const data = tempDir('bm-start');
    cleanup.push(() => rmSync(data, { recursive: true, force: true }));
    mkdirSync(path.join(data, 'app'), { recursive: true });
    writeFileSync(path.join(data, 'app', 'settings.json'), JSON.stringify({ breachSource: 'hibp' }));
    // Without a keychain (this run's secret store is memory) nothing of an earlier session's key survives.
    const app = start({ BREACH_SERVICE_PORT: String(servicePort), BREACH_MONITOR_DATA: data, BREACH_SERVICE_DEV: '1', BREACH_SERVICE_HIBP_API_KEY: 'a-key-from-the-shell-0123456789ab' });
    const [, pid] = await app.waitFor(/Reference service: \S+ \(process (\d+); no breach-data source/, 'the service process, with no source');
    await app.waitFor(/Open http/, 'the address to open');
    if (process.platform === 'linux') {
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      expect(commandLine).not.toContain('--dev');
      const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      // Neither an inherited development flag nor a key the person did not give the app.
      expect(environment.filter((entry) => entry.startsWith('BREACH_SERVICE_DEV=') || entry.startsWith('BREACH_SERVICE_HIBP_API_KEY='))).toEqual([]);
    }
    expect(app.output()).not.toContain('a-key-from-the-shell');
    await app.stop();
    // Stopping npm start stops the service it started.
    await eventually('the service to stop with npm start', async () => !(await isServiceAt(servicePort)));
  }, 60_000);

  it('a stop while the app is still starting also stops the service it started', async () => {
    let servicePort: number;
    do servicePort = await freePort();
    while (servicePort === 6060);
    const data = tempDir('bm-start');
    cleanup.push(() => rmSync(data, { recursive: true, force: true }));
    const app = start({ BREACH_SERVICE_PORT: String(servicePort), BREACH_MONITOR_DATA: data });
    const [, pid] = await app.waitFor(/Reference service: \S+ \(process (\d+);/, 'the service process');
    // Stopped at once, before the address to open is printed.
    await app.stop();
    await eventually(
      'the service process to end',
      () => {
        try {
          process.kill(Number(pid), 0);
          return undefined;
        } catch {
          return true;
        }
        // The service lets requests in flight finish first (--shutdown-grace, 10 s), and a loaded
        // machine starts slowly: allow both.
      },
      40_000,
    );
    expect(await isServiceAt(servicePort)).toBe(false);
  }, 60_000);
});
