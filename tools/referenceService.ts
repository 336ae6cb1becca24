// The reference service as `npm start` runs it: its own process (`npm run server` in all but
// name), so it can be stopped and started again without the app, or left out when its port is
// someone else's.
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LocalServiceLaunch } from '../electron/core/host.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface ServiceEndpoints {
  issuer: string;
  apiBaseUrl: string;
}

/** What answers on 127.0.0.1:port: nothing, a breach-alert reference service, or another program. */
export type PortUse = { kind: 'free' } | { kind: 'breach-alert'; endpoints: ServiceEndpoints } | { kind: 'other' };

export async function portUse(port: number): Promise<PortUse> {
  const listening = await new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
  if (!listening) return { kind: 'free' };
  const endpoints = await breachAlertAt(port);
  return endpoints ? { kind: 'breach-alert', endpoints } : { kind: 'other' };
}

/** The issuer and API of a reference service on `port`, if that is what answers there (`GET /` says so). */
export async function breachAlertAt(port: number): Promise<ServiceEndpoints | undefined> {
  const origin = `http://127.0.0.1:${port}`;
  try {
    const index = (await (await fetch(origin + '/', { signal: AbortSignal.timeout(2000) })).json()) as { service?: string; issuer?: string; api?: string };
    if (index.service !== 'breach-alert' || !index.issuer || !index.api) return undefined;
    return { issuer: index.issuer, apiBaseUrl: origin + index.api };
  } catch {
    return undefined;
  }
}

/** The sentence `npm start` prints when the service's port belongs to another program. */
export function portTakenMessage(port: number): string {
  return (
    `Port ${port} is in use by another program, so the reference service was not started. ` +
    `Start it on another port with BREACH_SERVICE_PORT=<port> npm start (or npm run server -- --port <port> --dev); ` +
    `the app starts anyway, against the service its settings name.`
  );
}

export interface ServiceProcess {
  child: ChildProcess;
  endpoints: ServiceEndpoints;
  /** The command that starts the same service again by hand. */
  restartCommand: string;
  /** Resolves with the exit code once the process has ended (for whatever reason). */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** The variable the service reads its Have I Been Pwned key from (`--hibp-api-key` would put it on a command line). */
export const HIBP_KEY_VARIABLE = 'BREACH_SERVICE_HIBP_API_KEY';
/** The variable the service reads another Have I Been Pwned address from (`--hibp-url`). */
export const HIBP_URL_VARIABLE = 'BREACH_SERVICE_HIBP_URL';

/**
 * The arguments and environment for a launch. Demo data: `--dev` (which implies `--demo`).
 * The person's key, or none: no `--dev` (and no `BREACH_SERVICE_DEV` / `BREACH_SERVICE_DEMO`
 * inherited), so nothing is invented; `--owner`, so the person signs in as its owner; the key
 * only in the child's environment.
 */
export function serviceLaunchCommand(options: { port: number; dataDir: string; launch?: LocalServiceLaunch }, env: NodeJS.ProcessEnv = process.env): { args: string[]; env: NodeJS.ProcessEnv } {
  const launch = options.launch ?? { source: 'demo' };
  // Real data or none: the person is the service's owner (--owner: they sign in with the secret
  // in its data folder, and their addresses are verified at once); demo data has its demo users.
  const args = ['server/main.ts', '--port', String(options.port), '--data', options.dataDir, ...(launch.source === 'demo' ? ['--dev'] : ['--owner'])];
  const childEnv: NodeJS.ProcessEnv = { ...env, LOG_LEVEL: env.LOG_LEVEL ?? 'warn' };
  delete childEnv[HIBP_KEY_VARIABLE];
  if (launch.source !== 'demo') {
    // Real data or none: nothing inherited from the shell may turn invented data on.
    delete childEnv.BREACH_SERVICE_DEV;
    delete childEnv.BREACH_SERVICE_DEMO;
  }
  if (launch.source === 'hibp') childEnv[HIBP_KEY_VARIABLE] = launch.apiKey;
  // The address the person named in Settings; without one, the shell's (or HIBP's own) stays.
  if (launch.source === 'hibp' && launch.hibpUrl) childEnv[HIBP_URL_VARIABLE] = launch.hibpUrl;
  return { args, env: childEnv };
}

/**
 * Starts `server/main.ts` as a child process on `port` (with the development surface and demo
 * data, or with the person's Have I Been Pwned key), and waits until it answers as a
 * breach-alert service. Rejects with what it printed if it ends first.
 */
export async function startServiceProcess(options: { port: number; dataDir: string; timeoutMs?: number; launch?: LocalServiceLaunch }): Promise<ServiceProcess> {
  const { args, env } = serviceLaunchCommand(options);
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'pipe'], env });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    process.stderr.write(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let ended = false;
  void exited.then(() => (ended = true));
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let endpoints: ServiceEndpoints | undefined;
  while (!(endpoints = await breachAlertAt(options.port))) {
    if (ended) throw new Error(`the reference service did not start (exit code ${child.exitCode}): ${stderr.trim().split('\n').at(-1) ?? ''}`);
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`the reference service did not answer on port ${options.port} within ${Math.round((options.timeoutMs ?? 30_000) / 1000)} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    endpoints,
    // The key is never printed: the command names the variable it goes in.
    restartCommand:
      options.launch?.source === 'hibp'
        ? `${HIBP_KEY_VARIABLE}=<your key> npm run server -- --port ${options.port} --data ${JSON.stringify(path.resolve(options.dataDir))} --owner`
        : `npm run server -- --port ${options.port} --data ${JSON.stringify(path.resolve(options.dataDir))} ${options.launch?.source === 'none' ? '--owner' : '--dev'}`,
    exited,
    async stop() {
      if (ended) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
