// `npm run test:service-install`: the reference service is a package of its own (the workspace
// `server/`, package `breach-monitor-service`). This copies the checkout's files (without
// node_modules) to a temporary folder, installs ONLY that package's run-time dependencies there
// (`npm ci -w breach-monitor-service --omit=dev`), and starts the service from that install: it
// must answer its OpenID discovery and its OpenAPI document, and none of the desktop app's or the
// tests' packages may have been installed. A dependency the service uses but does not declare
// fails here, not in someone's deployment.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

const SERVICE = 'breach-monitor-service';
/** Packages only the desktop app or the tests use: a production install of the service must not bring them. */
const NOT_EXPECTED = ['vitest', 'electron', 'react', 'playwright-core', 'typescript', 'node', 'csv-parse', 'tldts'];
/** What the service needs at run time (server/package.json): each must be there. */
const EXPECTED = ['oidc-provider', 'jose', 'pg', 'pino', 'zod', 'better-sqlite3', 'nodemailer', 'jsep', 'yaml'];

const root = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(tmpdir(), 'service-install-'));
let child: ReturnType<typeof spawn> | undefined;

function fail(message: string): never {
  console.error(`service install: ${message}`);
  child?.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
  process.exit(1);
}

try {
  // The files git knows (tracked, and new ones it does not ignore), as they are in the working tree.
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) fail(`git ls-files failed: ${listed.stderr}`);
  const files = listed.stdout.split('\0').filter((file) => file !== '' && existsSync(path.join(root, file)));
  for (const file of files) {
    mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
    copyFileSync(path.join(root, file), path.join(work, file));
  }

  const started = Date.now();
  const install = spawnSync('npm', ['ci', '-w', SERVICE, '--omit=dev', '--no-audit', '--no-fund'], {
    cwd: work,
    encoding: 'utf8',
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
  if (install.status !== 0) fail(`npm ci -w ${SERVICE} --omit=dev failed:\n${install.stdout}\n${install.stderr}`);
  const installed = readdirSync(path.join(work, 'node_modules'));
  const extra = NOT_EXPECTED.filter((name) => installed.includes(name));
  if (extra.length > 0) fail(`a production install of the service brought packages it does not run with: ${extra.join(', ')}`);
  const missing = EXPECTED.filter((name) => !installed.includes(name));
  if (missing.length > 0) fail(`a production install of the service lacks: ${missing.join(', ')}`);
  console.log(`service install: ${installed.length} packages in node_modules (${((Date.now() - started) / 1000).toFixed(1)} s)`);

  // Started as a deployment would: its own folder's main.ts, this Node (24: the service runs TypeScript as is).
  const data = path.join(work, 'data');
  child = spawn(process.execPath, ['main.ts', '--dev', '--port', '0', '--data', data], { cwd: path.join(work, 'server'), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const urls = await new Promise<{ base: string; issuer: string; openapi: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start within 60 s:\n${stderr}`)), 60_000);
    const found: Record<string, string> = {};
    createInterface({ input: child!.stdout! }).on('line', (line) => {
      const match = /^\s+(API base URL|Issuer|OpenAPI):\s+(\S+)/.exec(line);
      if (match) found[match[1]!] = match[2]!;
      if (found['API base URL'] && found.Issuer && found.OpenAPI) {
        clearTimeout(timer);
        resolve({ base: found['API base URL'], issuer: found.Issuer, openapi: found.OpenAPI });
      }
    });
    child!.once('exit', (code) => reject(new Error(`the service exited (${code}) before it started:\n${stderr}`)));
  }).catch((error: Error) => fail(error.message));

  const discovery = await fetch(`${urls.issuer}/.well-known/openid-configuration`);
  const configuration = (await discovery.json()) as { issuer?: string };
  if (!discovery.ok || configuration.issuer !== urls.issuer) fail(`its OpenID discovery answered ${discovery.status} with issuer ${configuration.issuer}`);
  const openapi = await fetch(urls.openapi);
  const text = await openapi.text();
  if (!openapi.ok || !/^openapi: 3\./m.test(text)) fail(`its OpenAPI document answered ${openapi.status}`);
  const unauthenticated = await fetch(`${urls.base}/breaches`);
  if (unauthenticated.status !== 401) fail(`GET /breaches without a token answered ${unauthenticated.status}, not 401`);
  console.log(`service install: started from its own production install; discovery, OpenAPI and the API answer (${urls.base})`);
  child.kill('SIGTERM');
  await new Promise((resolve) => child!.once('exit', resolve));
  rmSync(work, { recursive: true, force: true });
} catch (error) {
  fail((error as Error).stack ?? String(error));
}
