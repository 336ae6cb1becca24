// The local service `npm start` owns, restarted for the person's breach-data choice: a real
// `server/main.ts` process. Demo data runs with --dev; the person's Have I Been Pwned key reaches
// the restarted service only through its environment (the HIBP stand-in sees it used), never its
// command line, and the person signs in as its owner (--owner, the secret in its data folder); a
// service it did not start is never restarted.
import { readFileSync, rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort, tempDir } from '../core/auth/harness.ts';
import { HibpStandIn } from '../support/hibpStandIn.ts';
import { LocalServiceRunner } from '../../tools/localServiceRunner.ts';
import { eventually } from '../support/waitFor.ts';

const KEY = '0123456789abcdef0123456789abcdef';
let hibp: HibpStandIn;
const runners: LocalServiceRunner[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  hibp = await HibpStandIn.start({ keys: { [KEY]: { rpm: 10 } } });
  // The child inherits this: the restarted service asks the stand-in, not haveibeenpwned.com.
  process.env.BREACH_SERVICE_HIBP_URL = hibp.url;
});
afterAll(async () => {
  delete process.env.BREACH_SERVICE_HIBP_URL;
  await hibp.close();
});
afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function runner(port: number): { runner: LocalServiceRunner; lines: string[] } {
  const dataDir = tempDir('bm-runner');
  dirs.push(dataDir);
  const lines: string[] = [];
  const created = new LocalServiceRunner({ port, dataDir, log: (line) => lines.push(line) });
  runners.push(created);
  return { runner: created, lines };
}

const procFile = (pid: number, name: string) => readFileSync(`/proc/${pid}/${name}`, 'utf8').split('\0');

describe('LocalServiceRunner', () => {
  it('starts with demo data, then restarts with the key in the environment only', async () => {
    const port = await freePort();
    const { runner: local, lines } = runner(port);
    const endpoints = await local.start({ source: 'demo' });
    expect(endpoints?.apiBaseUrl).toBe(`http://127.0.0.1:${port}/api/v1`);
    const demoPid = local.process!.child.pid!;
    if (process.platform === 'linux') expect(procFile(demoPid, 'cmdline')).toContain('--dev');
    expect(lines.at(-1)).toContain('demo data, invented and labelled');
    // Demo data has its demo users: no owner sign-in.
    expect(local.ownerSecret(endpoints!.issuer)).toBeUndefined();
    // Choosing what already runs restarts nothing.
    await local.apply({ source: 'demo' });
    expect(local.process!.child.pid).toBe(demoPid);

    await local.apply({ source: 'hibp', apiKey: KEY });
    const pid = local.process!.child.pid!;
    expect(pid).not.toBe(demoPid);
    if (process.platform === 'linux') {
      const commandLine = procFile(pid, 'cmdline');
      expect(commandLine).not.toContain('--dev');
      expect(commandLine).toContain('--owner');
      expect(commandLine.join(' ')).not.toContain(KEY);
      expect(procFile(pid, 'environ')).toContain(`BREACH_SERVICE_HIBP_API_KEY=${KEY}`);
    }
    // The restarted service uses the key with Have I Been Pwned (its subscription, at start).
    await eventually('the service to ask HIBP with the key', () => hibp.requests.some((request) => request.key === KEY));
    expect(lines.join('\n')).not.toContain(KEY);
    expect(lines.at(-1)).toContain('your Have I Been Pwned key');
    expect(lines.at(-1)).toContain('BREACH_SERVICE_HIBP_API_KEY=<your key>');
    // On real data the person is the owner: the secret of its data folder, for its own issuer only.
    expect(lines.at(-1)).toContain('you sign in as its owner, with no password');
    const secret = local.ownerSecret(endpoints!.issuer);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(local.ownerSecret('http://127.0.0.1:1/oidc')).toBeUndefined();
    // The old one stopped on purpose: not reported as "stopped".
    expect(lines.some((line) => line.startsWith('The reference service stopped'))).toBe(false);
  }, 60_000);

  it('a service it did not start is used as it is and never restarted', async () => {
    const port = await freePort();
    const { runner: owner } = runner(port);
    await owner.start({ source: 'demo' });
    const { runner: guest, lines } = runner(port);
    await guest.start({ source: 'demo' });
    expect(lines).toEqual([`Using the reference service already running on port ${port}.`]);
    await expect(guest.apply({ source: 'hibp', apiKey: KEY })).rejects.toThrow(`a reference service that Breach Monitor did not start runs on port ${port}; stop it and start Breach Monitor again`);
    expect(owner.process!.child.exitCode).toBeNull();
  }, 60_000);
});
