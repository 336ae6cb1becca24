import { MessageChannelMain, utilityProcess, type MessagePortMain, type UtilityProcess, type WebContents } from 'electron';
import type { HostSignal, HostToCore } from '../../shared/ipc/host.ts';
import { PORT_DELIVERY_CHANNEL } from '../../shared/ipc/monitorApi.ts';
import { openRotatingLog } from './rotatingLog.ts';

export const CORE_SERVICE_NAME = 'Breach Monitor core';

export interface Backoff {
  initialMs: number;
  maxMs: number;
  /** A process that stayed up this long starts the next restart from `initialMs` again. */
  resetAfterMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 1_000, maxMs: 30_000, resetAfterMs: 60_000 };

export interface CoreProcessOptions {
  entryPath: string;
  dataDir: string;
  logPath: string;
  /** Answers a message from the core; a returned reply is posted back. */
  handleMessage(message: unknown): Promise<HostToCore | undefined>;
  backoff?: Backoff;
  now?: () => number;
}

export interface CoreProcess {
  /** Hands this renderer a MessagePort to the core, now and after every restart. */
  connect(contents: WebContents): void;
  signal(signal: HostSignal): void;
  /** Ask connected UIs to show a breach; kept until the core is up. */
  openBreach(id: string): void;
  /** Asks the core to close, waits up to `timeoutMs`, then kills it. No restart after this. */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * Runs the core in a utility process so SQLite and network work never block the UI thread. The
 * main process keeps only the OS side; renderers talk to the core over their own ports.
 */
export function startCoreProcess(options: CoreProcessOptions): CoreProcess {
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const now = options.now ?? Date.now;
  const renderers = new Set<WebContents>();
  const log = openRotatingLog(options.logPath);
  let child: UtilityProcess | undefined;
  let startedAt = 0;
  let delay = backoff.initialMs;
  let restartTimer: ReturnType<typeof setTimeout> | undefined;
  let pendingOpen: string | undefined;
  let stopping: Promise<void> | undefined;

  function post(message: HostToCore, transfer?: MessagePortMain[]): boolean {
    if (!child) return false;
    child.postMessage(message, transfer);
    return true;
  }

  function spawn(): void {
    restartTimer = undefined;
    const started = utilityProcess.fork(options.entryPath, ['--data-dir', options.dataDir], { serviceName: CORE_SERVICE_NAME, stdio: 'pipe' });
    child = started;
    startedAt = now();
    started.stdout?.pipe(log, { end: false });
    started.stderr?.pipe(log, { end: false });
    started.on('message', (message: unknown) => {
      options
        .handleMessage(message)
        .then((reply) => {
          if (reply && child === started) started.postMessage(reply);
        })
        .catch((error: unknown) => console.error('a request from the core failed', error));
    });
    started.once('exit', (code) => exited(started, code));
    for (const contents of renderers) hand(contents);
    if (pendingOpen !== undefined && post({ type: 'open-breach', id: pendingOpen })) pendingOpen = undefined;
  }

  function exited(which: UtilityProcess, code: number): void {
    if (child !== which) return;
    child = undefined;
    if (stopping) return;
    delay = now() - startedAt >= backoff.resetAfterMs ? backoff.initialMs : delay;
    log.write(`[main] core exited with code ${code}; restarting in ${delay} ms\n`);
    restartTimer = setTimeout(spawn, delay);
    delay = Math.min(delay * 2, backoff.maxMs);
  }

  function hand(contents: WebContents): void {
    if (!child || contents.isDestroyed()) return;
    const { port1, port2 } = new MessageChannelMain();
    child.postMessage({ type: 'connect' } satisfies HostToCore, [port1]);
    contents.postMessage(PORT_DELIVERY_CHANNEL, null, [port2]);
  }

  spawn();

  return {
    connect(contents) {
      if (!renderers.has(contents)) {
        renderers.add(contents);
        contents.once('destroyed', () => renderers.delete(contents));
      }
      hand(contents);
    },
    signal(signal) {
      // Machine signals are hints about "now": one missed while the core restarts is stale anyway.
      post({ type: 'signal', signal });
    },
    openBreach(id) {
      if (!post({ type: 'open-breach', id })) pendingOpen = id;
    },
    stop(timeoutMs = 3_000) {
      stopping ??= new Promise<void>((resolve) => {
        clearTimeout(restartTimer);
        const running = child;
        if (!running) return resolve();
        const timer = setTimeout(() => running.kill(), timeoutMs);
        running.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        running.postMessage({ type: 'shutdown' } satisfies HostToCore);
      }).then(() => new Promise<void>((resolve) => log.end(resolve)));
      return stopping;
    },
  };
}
