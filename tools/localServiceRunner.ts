// The local reference service as `npm start` owns it: started for the person's breach-data
// choice, and restarted for a new one (`HostBridge.localService`). One it did not start (already
// running on the port) or a port another program holds is used or left alone, never restarted.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { OwnerSignIn } from '../shared/api/localService.ts';
import type { LocalServiceControl, LocalServiceLaunch } from '../electron/core/host.ts';
import { portTakenMessage, portUse, startServiceProcess, type ServiceEndpoints, type ServiceProcess } from './referenceService.ts';

const DATA_FROM: Record<LocalServiceLaunch['source'], string> = {
  demo: 'demo data, invented and labelled',
  hibp: 'your Have I Been Pwned key',
  none: 'no breach-data source (your Have I Been Pwned key is not kept any more: paste it again in Settings)',
};

export interface LocalServiceRunnerOptions {
  port: number;
  dataDir: string;
  log(line: string): void;
}

export class LocalServiceRunner implements LocalServiceControl {
  readonly #options: LocalServiceRunnerOptions;
  #process: ServiceProcess | undefined;
  /** What the running service was started for. */
  #launch: LocalServiceLaunch | undefined;
  #endpoints: ServiceEndpoints | undefined;
  /** Why it cannot be restarted (a service it did not start, another program on the port). */
  #notOurs: string | undefined;
  #stopping = false;

  constructor(options: LocalServiceRunnerOptions) {
    this.#options = options;
  }

  get endpoints(): ServiceEndpoints | undefined {
    return this.#endpoints;
  }

  get process(): ServiceProcess | undefined {
    return this.#process;
  }

  /** Uses what answers on the port, or starts the service for `launch`. */
  async start(launch: LocalServiceLaunch = { source: 'demo' }): Promise<ServiceEndpoints | undefined> {
    const { port, log } = this.#options;
    const use = await portUse(port);
    if (use.kind === 'breach-alert') {
      log(`Using the reference service already running on port ${port}.`);
      this.#notOurs = `a reference service that Breach Monitor did not start runs on port ${port}; stop it and start Breach Monitor again`;
      return (this.#endpoints = use.endpoints);
    }
    if (use.kind === 'other') {
      log(portTakenMessage(port));
      this.#notOurs = `another program holds port ${port}`;
      return undefined;
    }
    await this.#startOwn(launch);
    return this.#endpoints;
  }

  /** The person changed where breach data comes from: the service restarts with it. */
  async apply(launch: LocalServiceLaunch): Promise<void> {
    if (this.#notOurs) throw new Error(this.#notOurs);
    // Already running for this choice (the first run's demo, the same key again): nothing to restart.
    if (this.#process && this.#process.child.exitCode === null && sameLaunch(this.#launch, launch)) return;
    const previous = this.#process;
    this.#process = undefined;
    await previous?.stop();
    await this.#startOwn(launch);
  }

  /**
   * The owner secret of the service it started on real data (`--owner`), for that service's
   * issuer only: read from the service's data folder as the same OS user, never sent elsewhere.
   */
  ownerSecret(issuer: string): string | undefined {
    const started = this.#process;
    if (!started || started.child.exitCode !== null || this.#launch?.source === 'demo') return undefined;
    if (trimSlashes(started.endpoints.issuer) !== trimSlashes(issuer)) return undefined;
    try {
      return readFileSync(path.join(this.#options.dataDir, OwnerSignIn.secretFile), 'utf8').trim() || undefined;
    } catch {
      return undefined;
    }
  }

  /** Stops the service it started; one still starting is stopped as soon as it answers. */
  async stop(): Promise<void> {
    this.#stopping = true;
    await this.#starting?.catch(() => undefined);
    await this.#process?.stop();
  }

  #starting: Promise<void> | undefined;

  async #startOwn(launch: LocalServiceLaunch): Promise<void> {
    const starting = this.#startProcess(launch);
    this.#starting = starting;
    try {
      await starting;
    } finally {
      if (this.#starting === starting) this.#starting = undefined;
    }
  }

  async #startProcess(launch: LocalServiceLaunch): Promise<void> {
    const { port, dataDir, log } = this.#options;
    const started = await startServiceProcess({ port, dataDir, launch });
    this.#process = started;
    this.#launch = launch;
    this.#endpoints = started.endpoints;
    log(
      `Reference service: ${started.endpoints.apiBaseUrl} (process ${started.child.pid}; ${DATA_FROM[launch.source]}; ${launch.source === 'demo' ? 'demo users: alice@example.com, bob@example.com, carol@example.com; any password' : 'you sign in as its owner, with no password'}). ` +
        `It runs on its own: stop it with kill ${started.child.pid}, start it again with ${started.restartCommand}.`,
    );
    void started.exited.then((code) => {
      // Only the one running now: a restart stops the previous one on purpose.
      if (!this.#stopping && this.#process === started) log(`The reference service stopped (exit code ${code}); the app keeps running. Start it again with ${started.restartCommand}`);
    });
  }
}

function sameLaunch(a: LocalServiceLaunch | undefined, b: LocalServiceLaunch): boolean {
  if (!a || a.source !== b.source) return false;
  return a.source !== 'hibp' || (b.source === 'hibp' && a.apiKey === b.apiKey);
}

function trimSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}
