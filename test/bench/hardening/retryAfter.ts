// Idle CPU for 60 s after a 429 with an enormous retry-after (`retry-after: 999999999`, 31 years):
// the service must sleep (its wait bounded to a day, armed as timers Node can hold), not spin on
// 1 ms timers writing TimeoutOverflowWarning lines. Two services side by side against the HIBP
// stand-in over the same minute: one whose every HIBP answer is that 429, and one HIBP answers
// normally (the floor). CPU from /proc (user + system), lines from their stdout and stderr.
// RETRY_AFTER_IDLE_SECONDS shortens the minute.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HibpStandIn } from '../../support/hibpStandIn.ts';
import { startProcess, stopProcess } from '../processes.ts';

const READY = /API base URL:\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/;
const KEY = '0123456789abcdef0123456789abcdef';
const IDLE_MS = Number(process.env.RETRY_AFTER_IDLE_SECONDS ?? 60) * 1000;
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

interface Idle {
  cpuPercent: number;
  lines: number;
  hibpRequests: number;
}

async function startIdle(standIn: HibpStandIn, dataDir: string): Promise<{ measure(): Promise<Idle>; stop(): Promise<void> }> {
  const { child } = await startProcess(['server/main.ts', '--port', '0', '--data', dataDir, '--log-level', 'info'], READY, {
    BREACH_SERVICE_HIBP_API_KEY: KEY,
    BREACH_SERVICE_HIBP_URL: standIn.url,
    BREACH_SERVICE_DEV: '',
    BREACH_SERVICE_DEMO: '',
  });
  let lines = 0;
  const count = (chunk: Buffer) => (lines += chunk.toString().split('\n').length - 1);
  child.stdout!.on('data', count);
  child.stderr!.on('data', count);
  return {
    async measure() {
      // The start-up (status read, catalog fetch) is over: what follows is the idle service.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const cpuBefore = cpuSeconds(child.pid!);
      const linesBefore = lines;
      const requestsBefore = standIn.requests.length;
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      return {
        cpuPercent: ((cpuSeconds(child.pid!) - cpuBefore) / (IDLE_MS / 1000)) * 100,
        lines: lines - linesBefore,
        hibpRequests: standIn.requests.length - requestsBefore,
      };
    },
    stop: () => stopProcess(child),
  };
}

const round = (value: number) => Math.round(value * 100) / 100;

/** The metrics of the idle minute after a 429 asking for 31 years, beside a service HIBP answers normally. */
export async function measureIdleAfterHugeRetryAfter(): Promise<Record<string, { value: number; unit: string; floor: number; ratio: number }>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-retry-after-'));
  const stormy = await HibpStandIn.start({ keys: { [KEY]: { rpm: 10 } } });
  const calm = await HibpStandIn.start({ keys: { [KEY]: { rpm: 10 } } });
  stormy.storm(() => 999_999_999);
  const services: { stop(): Promise<void> }[] = [];
  try {
    const held = await startIdle(stormy, path.join(dir, 'held'));
    services.push(held);
    const floor = await startIdle(calm, path.join(dir, 'floor'));
    services.push(floor);
    if (!stormy.requests.some((request) => request.status === 429)) throw new Error('the stand-in never answered 429: nothing measured');
    const [after, idle] = await Promise.all([held.measure(), floor.measure()]);
    console.log(
      `idle ${IDLE_MS / 1000} s after a 429 with retry-after 999999999: CPU ${round(after.cpuPercent)} % of a core, ${after.lines} log lines, ${after.hibpRequests} HIBP requests (a service HIBP answers: CPU ${round(idle.cpuPercent)} %, ${idle.lines} lines)`,
    );
    // A floor of 0 (no tick counted) is read as one tick over the minute, so the ratio stays a number.
    const cpuFloor = Math.max(idle.cpuPercent, (100 / CLOCK_TICKS / (IDLE_MS / 1000)) * 1);
    return {
      idle_cpu_after_huge_retry_after: { value: round(after.cpuPercent), unit: '% of a core', floor: round(cpuFloor), ratio: round(after.cpuPercent / cpuFloor) },
      log_lines_after_huge_retry_after: { value: after.lines, unit: 'lines', floor: idle.lines, ratio: round(after.lines / Math.max(1, idle.lines)) },
    };
  } finally {
    for (const service of services) await service.stop();
    await stormy.close();
    await calm.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
