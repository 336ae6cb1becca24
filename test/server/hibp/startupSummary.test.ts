// The real service process (server/main.ts) started with a Have I Been Pwned key, against the
// HIBP stand-in: its start-up summary names the key by its last 4 characters only, and nothing it
// prints — the summary, the log lines at debug — ever holds the key itself, whether HIBP takes
// the key or refuses it (issue 35, finding 9: a summary with the whole key passed every test).
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { skipWithoutFixture } from '../../support/fixtures.ts';
import { KEY, OTHER_KEY, tempDir } from '../../support/hibpService.ts';
import { HIBP_FIXTURE_CATALOG, HibpStandIn } from '../../support/hibpStandIn.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SUMMARY_END = /Hardening:.*\n/;
const dirs: string[] = [];
const running: { child?: ChildProcess; standIn?: HibpStandIn } = {};
afterEach(async () => {
  const { child } = running;
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  await running.standIn?.close();
  running.child = undefined;
  running.standIn = undefined;
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Starts the service with `key` (from the environment, as an operator would) and resolves with all it printed up to its summary's end. */
async function startupOutput(key: string): Promise<string> {
  const standIn = await HibpStandIn.start({ keys: { [KEY]: { rpm: 10, stealerLogs: false, domains: [] } } });
  running.standIn = standIn;
  const args = ['server/main.ts', '--port', '0', '--data', tempDir('hibp-summary-', dirs), '--catalog', HIBP_FIXTURE_CATALOG, '--hibp-url', standIn.url, '--log-level', 'debug'];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, BREACH_SERVICE_HIBP_API_KEY: key } });
  running.child = child;
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start-up summary within 20 s; the service printed: ${output.slice(0, 2000)}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (SUMMARY_END.test(output)) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the service exited (${code}) before its summary: ${output.slice(0, 2000)}`));
    });
  });
}

describe.skipIf(skipWithoutFixture(HIBP_FIXTURE_CATALOG, 'HIBP start-up summary'))('the start-up summary with a Have I Been Pwned key', () => {
  it('names a key HIBP takes by its last 4 characters, and prints the key nowhere', async () => {
    const output = await startupOutput(KEY);
    expect(output).toMatch(/Breach data: +Have I Been Pwned \(key …cdef\) — up to 10 lookups a minute/);
    expect(output).not.toContain(KEY);
    // Nor any longer piece of it than the 4 characters shown.
    expect(output).not.toContain(KEY.slice(-5));
  });

  it('names a key HIBP refuses the same way, and prints the key nowhere', async () => {
    const output = await startupOutput(OTHER_KEY);
    expect(output).toMatch(/Breach data: +Have I Been Pwned \(key …3210\) — .*--hibp-api-key/);
    expect(output).not.toContain(OTHER_KEY);
    expect(output).not.toContain(OTHER_KEY.slice(-5));
  });
});
