// npm run test:reliability — a seeded random soak of the outbox and sync against the reference
// service (a child process) behind a fault-injecting proxy, with client worker processes
// killed by SIGKILL at random points and restarted on the same database file. At the end the
// service must hold the person's last intents, except exactly the intents reported failed
// for a real reason (an email removed on the service side). Last line: one JSON object.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Breach, dataClassKey, type UserBreach } from '../../shared/api/index.ts';
import { createRng } from '../../server/catalog/prng.ts';
import { startProcess, stopProcess } from '../bench/processes.ts';
import { startFaultProxy, type ProxyFault } from './faultProxy.ts';
import { judge, keyOf, type Key } from './model.ts';
import type { Target, WorkerArgs, WorkerCommand, WorkerReply, WorkerRequest } from './protocol.ts';

const SEED = Number(process.env.SOAK_SEED ?? 20260214);
const OPERATIONS = Number(process.env.SOAK_OPERATIONS ?? 1200);
const SUB = 'soak';
const EMAILS = ['soak-a@soak.example', 'soak-b@soak.example', 'soak-c@soak.example', 'soak-d@soak.example'];
const REMOVED = EMAILS[3]!;
const FAULT_RATES: [ProxyFault, number][] = [
  ['drop-before', 0.06],
  ['drop-after', 0.06],
  ['server-error', 0.05],
  ['rate-limited', 0.02],
  ['unauthorized', 0.04],
];
const KILL_DURING = 0.025;
const KILL_IDLE = 0.01;
const COMMAND_TIMEOUT_MS = 60_000;
const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class Worker {
  readonly #child: ChildProcess;
  readonly #pending = new Map<number, (reply: WorkerReply | 'killed') => void>();
  #next = 1;

  private constructor(child: ChildProcess) {
    this.#child = child;
    child.on('message', (message: WorkerReply) => {
      const resolve = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      resolve?.(message);
    });
    child.on('exit', () => {
      for (const resolve of this.#pending.values()) resolve('killed');
      this.#pending.clear();
    });
  }

  static start(args: WorkerArgs): Promise<Worker> {
    const child = fork(WORKER, [JSON.stringify(args)], { execPath: process.execPath, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    return new Promise((resolve, reject) => {
      child.once('message', () => resolve(new Worker(child)));
      child.once('exit', (code) => reject(new Error(`worker exited with ${code} before it was ready`)));
    });
  }

  call(command: WorkerRequest): Promise<WorkerReply | 'killed'> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`worker did not answer ${command.op} within ${COMMAND_TIMEOUT_MS} ms`)), COMMAND_TIMEOUT_MS);
      this.#pending.set(id, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
      this.#child.send({ ...command, id } as WorkerCommand);
    });
  }

  async value<T>(command: WorkerRequest): Promise<T> {
    const reply = await this.call(command);
    if (reply === 'killed' || !reply.ok) throw new Error(`${command.op}: ${reply === 'killed' ? 'worker died' : reply.error}`);
    return reply.value as T;
  }

  kill(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.#child.once('exit', () => resolve());
      this.#child.kill('SIGKILL');
    });
  }

  stop(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.#child.once('exit', () => resolve());
      this.#child.disconnect();
    });
  }
}

async function dev(origin: string, method: string, pathname: string, body: unknown): Promise<unknown> {
  const response = await fetch(origin + pathname, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** The service's own view, straight from it (no proxy): resolved keys and every key it lists. */
async function serviceState(origin: string): Promise<{ resolved: Set<Key>; keys: Set<Key> }> {
  const { access_token: token } = (await dev(origin, 'POST', '/__dev/token', { sub: SUB })) as { access_token: string };
  const response = await fetch(`${origin}/api/v1/user/breaches?includeSensitive=true`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`GET /user/breaches: ${response.status}`);
  const items = (await response.json()) as UserBreach[];
  const resolved = new Set<Key>();
  const keys = new Set<Key>();
  for (const item of items)
    for (const account of item.breachedAccounts) {
      for (const name of item.breach.dataClasses) keys.add(keyOf(item.breach.id, account.email, dataClassKey(name)));
      for (const name of Object.keys(account.resolvedDataClasses)) resolved.add(keyOf(item.breach.id, account.email, dataClassKey(name)));
    }
  return { resolved, keys };
}

async function main(): Promise<void> {
  const started = performance.now();
  const rng = createRng(SEED);
  const faultRng = createRng(SEED ^ 0x5eed);
  const dir = mkdtempSync(path.join(tmpdir(), 'soak-'));
  const service = await startProcess(['server/main.ts', '--port', '0', '--dev', '--data', path.join(dir, 'service'), '--log-level', 'warn'], /API base URL:\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/);
  const origin = service.match[1]!;
  let faultsOn = true;
  let lastFault: ProxyFault | undefined;
  /** A kill waiting for the client's next resolutions request to reach this point. */
  let armedKill: { phase: 'before' | 'after'; fire: () => Promise<void> } | undefined;
  const proxy = await startFaultProxy({
    target: origin,
    retryAfterSeconds: 1,
    decide() {
      // A 401 is followed by a clean request, so the client's refresh-and-retry can succeed ("401 once").
      if (!faultsOn || lastFault === 'unauthorized') return (lastFault = undefined);
      let draw = faultRng.next();
      for (const [fault, rate] of FAULT_RATES) {
        if (draw < rate) return (lastFault = fault);
        draw -= rate;
      }
      return (lastFault = undefined);
    },
    async checkpoint({ method, phase }) {
      if (method === 'POST' && armedKill?.phase === phase) {
        const { fire } = armedKill;
        armedKill = undefined;
        await fire();
      }
    },
  });
  let worker: Worker | undefined;
  try {
    // A person with four emails, each in a dozen or so of the demo catalog's breaches, some already resolved.
    const catalog = Breach.array().parse(JSON.parse(readFileSync(new URL('../../resources/demo-catalog.json', import.meta.url), 'utf8')));
    await dev(origin, 'PUT', `/__dev/accounts/${SUB}`, { emails: EMAILS });
    for (const [i, email] of EMAILS.entries()) await dev(origin, 'PUT', '/__dev/exposures', { email, breachIds: catalog.slice(i * 8, i * 8 + 14).map((b) => b.id) });
    const { access_token: token } = (await dev(origin, 'POST', '/__dev/token', { sub: SUB })) as { access_token: string };
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    if ((await fetch(`${origin}/api/v1/user`, { method: 'POST', headers: auth })).status !== 201) throw new Error('POST /user failed');
    const seedItems = catalog
      .slice(0, 30)
      .filter((_, i) => i % 3 === 0)
      .map((b) => ({ breachId: b.id, dataClasses: [b.dataClasses[0]!], resolved: true }));
    if ((await fetch(`${origin}/api/v1/user/breaches/resolutions`, { method: 'POST', headers: auth, body: JSON.stringify(seedItems) })).status !== 204) throw new Error('seeding resolutions failed');
    const initial = (await serviceState(origin)).resolved;

    const args: WorkerArgs = { db: path.join(dir, 'client', 'account.db'), apiBaseUrl: `${proxy.origin}/api/v1`, serviceOrigin: origin, sub: SUB };
    worker = await Worker.start(args);
    for (let attempt = 0; ; attempt++) {
      const reply = await worker.value<{ status: string }>({ op: 'sync' });
      if (reply.status === 'ok') break;
      if (attempt > 50) throw new Error('the first sync never succeeded');
      await sleep(200);
    }
    const targets = await worker.value<Target[]>({ op: 'targets' });
    const intents = new Map<Key, boolean>();
    const toggledAfterRemoval = new Set<Key>();
    const counts = { toggles: 0, syncs: 0, flushes: 0, kills: 0, inDoubt: 0, refused: 0 };
    let removed = false;
    const current = (key: Key) => intents.get(key) ?? initial.has(key);

    const restart = async () => {
      await worker!.kill();
      counts.kills++;
      worker = await Worker.start(args);
    };

    const toggle = async (target: Target) => {
      const dataClass = rng.pick(target.dataClasses);
      const key = keyOf(target.breachId, target.email, dataClassKey(dataClass));
      const resolved = rng.chance(0.75) ? !current(key) : rng.chance(0.5);
      const before = current(key);
      const killDuring = rng.chance(KILL_DURING);
      const reply = worker!.call({ op: 'toggle', breachId: target.breachId, email: target.email, dataClass, resolved });
      if (killDuring) {
        await sleep(rng.int(0, 3));
        await restart();
      }
      const answer = await reply;
      counts.toggles++;
      if (answer !== 'killed' && !answer.ok) {
        counts.refused++; // e.g. the email's breaches left the local store after a pull
        return;
      }
      let committed = answer !== 'killed';
      if (answer === 'killed') {
        // Killed before the answer: whatever the restarted client shows is what the person has.
        counts.inDoubt++;
        const [state] = await worker!.value<(boolean | null)[]>({ op: 'state', keys: [key] });
        if (state === null || state === undefined) return;
        committed = state !== before;
        intents.set(key, state);
      } else intents.set(key, resolved);
      if (removed && target.email === REMOVED && committed) toggledAfterRemoval.add(key);
    };

    // Kills during a push land at a random time, or exactly while a resolutions request is on
    // the wire: before the service has it, or after it committed and before the client hears.
    const command = async (op: 'sync' | 'flush') => {
      const kill = rng.chance(KILL_DURING * 3) ? rng.pick(['timer', 'before', 'after'] as const) : undefined;
      let killed: Promise<void> | undefined;
      if (kill === 'before' || kill === 'after') armedKill = { phase: kill, fire: () => (killed = restart()) };
      const reply = worker!.call({ op });
      if (kill === 'timer') {
        await sleep(rng.int(0, 15));
        await restart();
      }
      await reply;
      armedKill = undefined;
      await killed;
      counts[op === 'sync' ? 'syncs' : 'flushes']++;
    };

    const removalAt = Math.floor(OPERATIONS * 0.85);
    const kept = targets.filter((t) => t.email !== REMOVED);
    const onRemoved = targets.filter((t) => t.email === REMOVED);
    for (let op = 0; op < OPERATIONS; op++) {
      if (op === removalAt) {
        // Near the end the account side drops an email: its queued and new items now answer 404.
        for (let i = 0; i < 10; i++) await toggle(rng.pick(onRemoved));
        await dev(origin, 'PUT', `/__dev/accounts/${SUB}`, { emails: EMAILS.filter((e) => e !== REMOVED) });
        removed = true;
        for (let i = 0; i < 15; i++) await toggle(rng.pick(onRemoved));
      }
      const draw = rng.next();
      if (draw < 0.72) await toggle(rng.pick(removed ? kept : targets));
      else if (draw < 0.86) await command('sync');
      else await command('flush');
      if (rng.chance(KILL_IDLE)) await restart();
    }

    // Faults off: let the client deliver what it still holds.
    faultsOn = false;
    let settled = false;
    for (let attempt = 0; attempt < 60 && !settled; attempt++) {
      const report = await worker.value<{ status: string; retryAt?: number }>({ op: 'sync' });
      const summary = await worker.value<{ pending: number; sending: number }>({ op: 'summary' });
      settled = report.status === 'ok' && summary.pending === 0 && summary.sending === 0;
      if (!settled) await sleep(Math.min(2000, Math.max(50, (report.retryAt ?? 0) - Date.now())));
    }
    if (!settled) throw new Error('the outbox never drained with faults off');
    const failed = new Map((await worker.value<{ key: Key; reason: string }[]>({ op: 'failed' })).map((f) => [f.key, f.reason]));
    const final = await serviceState(origin);
    const verdict = judge({ intents, initial, finalKeys: final.keys, finalResolved: final.resolved, failed, removedEmail: REMOVED, committed: proxy.committed });
    const faults = Object.values(proxy.injected).reduce((a, b) => a + b, 0);
    const operations = counts.toggles + counts.syncs + counts.flushes;

    console.log(`seed ${SEED}: ${operations} operations (${counts.toggles} toggles, ${counts.syncs} syncs, ${counts.flushes} flushes) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    console.log(`faults injected: ${JSON.stringify(proxy.injected)}, of which into flushes: ${JSON.stringify(proxy.injectedIntoFlush)}`);
    console.log(`kills: ${counts.kills} (${counts.inDoubt} toggles in doubt, resolved from the restarted client); ${counts.refused} toggles refused locally`);
    console.log(`client killed mid-request ${proxy.abandoned.count} times (${proxy.abandoned.resolutions} of them resolution requests)`);
    console.log(
      `service: ${proxy.committed.length} resolution requests committed; ${verdict.checked} keys compared; ${verdict.failed} reported failed for the removed email (${toggledAfterRemoval.size} toggled after its removal)`,
    );
    for (const miss of verdict.misses) console.log(miss);
    const ok = verdict.lost === 0 && verdict.duplicated === 0 && verdict.wronglyFailed === 0 && operations >= 1000 && toggledAfterRemoval.size > 0;
    if (!ok) console.error('reliability check FAILED');
    console.log(JSON.stringify({ operations, faults, kills: counts.kills, lost: verdict.lost, duplicated: verdict.duplicated, wronglyFailed: verdict.wronglyFailed }));
    process.exitCode = ok ? 0 : 1;
  } finally {
    await worker?.stop();
    await proxy.close();
    await stopProcess(service.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `--contract firefox-v1`: the same soak through the newer Monitor contract. Toggles are per
 * breach and data class (that contract resolves for every email a breach affected); resolves of
 * passwords and email addresses go to the service, unresolves and other classes stay on this
 * machine. Judged per (breach, class): a resolve the person made that the service does not hold
 * is lost; a resolve the service holds that the person never made (or any change to a class the
 * contract cannot carry) is duplicated; any item reported failed is wrongly failed (nothing here
 * is refused for a reason); and a client that does not show the person's last choice lost it.
 */
async function mainFirefox(): Promise<void> {
  const started = performance.now();
  const rng = createRng(SEED);
  const faultRng = createRng(SEED ^ 0x5eed);
  const dir = mkdtempSync(path.join(tmpdir(), 'soak-firefox-'));
  const service = await startProcess(['server/main.ts', '--port', '0', '--dev', '--data', path.join(dir, 'service'), '--log-level', 'warn'], /API base URL:\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/);
  const origin = service.match[1]!;
  let faultsOn = true;
  let lastFault: ProxyFault | undefined;
  let armedKill: { phase: 'before' | 'after'; fire: () => Promise<void> } | undefined;
  const proxy = await startFaultProxy({
    target: origin,
    retryAfterSeconds: 1,
    decide() {
      if (!faultsOn || lastFault === 'unauthorized') return (lastFault = undefined);
      let draw = faultRng.next();
      for (const [fault, rate] of FAULT_RATES) {
        if (draw < rate) return (lastFault = fault);
        draw -= rate;
      }
      return (lastFault = undefined);
    },
    async checkpoint({ method, phase }) {
      if (method === 'POST' && armedKill?.phase === phase) {
        const { fire } = armedKill;
        armedKill = undefined;
        await fire();
      }
    },
  });
  const emails = EMAILS.slice(0, 3);
  let worker: Worker | undefined;
  try {
    const catalog = Breach.array().parse(JSON.parse(readFileSync(new URL('../../resources/demo-catalog.json', import.meta.url), 'utf8')));
    await dev(origin, 'PUT', `/__dev/accounts/${SUB}`, { emails });
    for (const [i, email] of emails.entries()) await dev(origin, 'PUT', '/__dev/exposures', { email, breachIds: catalog.slice(i * 8, i * 8 + 14).map((b) => b.id) });
    const { access_token: token } = (await dev(origin, 'POST', '/__dev/token', { sub: SUB })) as { access_token: string };
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    // Signing up happens on the service's site (here: the older mount's POST /user), never through the newer contract.
    if ((await fetch(`${origin}/api/v1/user`, { method: 'POST', headers: auth })).status !== 201) throw new Error('POST /user failed');
    const seedItems = catalog
      .slice(0, 30)
      .filter((_, i) => i % 3 === 0)
      .map((b) => ({ breachId: b.id, dataClasses: [b.dataClasses[0]!], resolved: true }));
    if ((await fetch(`${origin}/api/v1/user/breaches/resolutions`, { method: 'POST', headers: auth, body: JSON.stringify(seedItems) })).status !== 204) throw new Error('seeding resolutions failed');
    const initial = (await serviceState(origin)).resolved;

    const args: WorkerArgs = { db: path.join(dir, 'client', 'account.db'), apiBaseUrl: `${proxy.origin}/api/firefox/v1`, serviceOrigin: origin, sub: SUB, contract: 'firefox-v1' };
    worker = await Worker.start(args);
    for (let attempt = 0; ; attempt++) {
      const reply = await worker.value<{ status: string }>({ op: 'sync' });
      if (reply.status === 'ok') break;
      if (attempt > 50) throw new Error('the first sync never succeeded');
      await sleep(200);
    }
    // Units: (breach, data class) with the emails the breach affects, as the local store knows them.
    const units = new Map<string, { breachId: string; dataClass: string; classKey: string; emails: string[] }>();
    for (const target of await worker.value<Target[]>({ op: 'targets' })) {
      for (const dataClass of target.dataClasses) {
        const unit = `${target.breachId}|${dataClassKey(dataClass)}`;
        const known = units.get(unit);
        if (known) known.emails.push(target.email);
        else units.set(unit, { breachId: target.breachId, dataClass, classKey: dataClassKey(dataClass), emails: [target.email] });
      }
    }
    const unitList = [...units.entries()];
    const keysOf = (unit: string) => units.get(unit)!.emails.map((email) => keyOf(units.get(unit)!.breachId, email, units.get(unit)!.classKey));
    const intents = new Map<string, boolean>();
    const everResolved = new Set<string>();
    const counts = { toggles: 0, syncs: 0, flushes: 0, kills: 0, inDoubt: 0, refused: 0 };
    const current = (unit: string) => intents.get(unit) ?? keysOf(unit).every((key) => initial.has(key));

    const restart = async () => {
      await worker!.kill();
      counts.kills++;
      worker = await Worker.start(args);
    };

    const toggle = async ([unit, target]: [string, { breachId: string; dataClass: string }]) => {
      const resolved = rng.chance(0.75) ? !current(unit) : rng.chance(0.5);
      const killDuring = rng.chance(KILL_DURING);
      const reply = worker!.call({ op: 'toggle', breachId: target.breachId, dataClass: target.dataClass, resolved });
      if (killDuring) {
        await sleep(rng.int(0, 3));
        await restart();
      }
      const answer = await reply;
      counts.toggles++;
      if (answer !== 'killed' && !answer.ok) {
        counts.refused++;
        return;
      }
      let state = resolved;
      if (answer === 'killed') {
        counts.inDoubt++;
        const shown = await worker!.value<(boolean | null)[]>({ op: 'state', keys: keysOf(unit) });
        if (shown.some((value) => value === null)) return;
        // All or nothing per toggle (one transaction): the emails agree.
        if (!shown.every((value) => value === shown[0])) throw new Error(`a toggle of ${unit} landed for some emails only`);
        state = shown[0] as boolean;
        if (state === current(unit)) return;
      }
      intents.set(unit, state);
      if (state) everResolved.add(unit);
    };

    const command = async (op: 'sync' | 'flush') => {
      const kill = rng.chance(KILL_DURING * 3) ? rng.pick(['timer', 'before', 'after'] as const) : undefined;
      let killed: Promise<void> | undefined;
      if (kill === 'before' || kill === 'after') armedKill = { phase: kill, fire: () => (killed = restart()) };
      const reply = worker!.call({ op });
      if (kill === 'timer') {
        await sleep(rng.int(0, 15));
        await restart();
      }
      await reply;
      armedKill = undefined;
      await killed;
      counts[op === 'sync' ? 'syncs' : 'flushes']++;
    };

    for (let op = 0; op < OPERATIONS; op++) {
      const draw = rng.next();
      if (draw < 0.72) await toggle(rng.pick(unitList));
      else if (draw < 0.86) await command('sync');
      else await command('flush');
      if (rng.chance(KILL_IDLE)) await restart();
    }

    faultsOn = false;
    let settled = false;
    let summary = { pending: 0, sending: 0, local: 0 };
    for (let attempt = 0; attempt < 60 && !settled; attempt++) {
      const report = await worker.value<{ status: string; retryAt?: number }>({ op: 'sync' });
      summary = await worker.value<{ pending: number; sending: number; local: number }>({ op: 'summary' });
      settled = report.status === 'ok' && summary.pending === 0 && summary.sending === 0;
      if (!settled) await sleep(Math.min(2000, Math.max(50, (report.retryAt ?? 0) - Date.now())));
    }
    if (!settled) throw new Error('the outbox never drained with faults off');
    const failed = await worker.value<{ key: Key; reason: string }[]>({ op: 'failed' });
    const final = await serviceState(origin);
    const verdict = { lost: 0, duplicated: 0, wronglyFailed: failed.length, checked: 0 };
    const RESOLVABLE = new Set(['passwords', 'email-addresses']);
    for (const [unit, { classKey }] of unitList) {
      verdict.checked++;
      const keys = keysOf(unit);
      const last = current(unit);
      // The client shows the person's last choice for every email of the unit.
      const shown = await worker.value<(boolean | null)[]>({ op: 'state', keys });
      if (!shown.every((value) => value === last)) verdict.lost++;
      const held = keys.map((key) => final.resolved.has(key));
      if (RESOLVABLE.has(classKey)) {
        if (last && !held.every(Boolean)) verdict.lost++;
        if (!everResolved.has(unit) && held.some((value, i) => value && !initial.has(keys[i]!))) verdict.duplicated++;
      } else if (held.some((value, i) => value !== initial.has(keys[i]!))) verdict.duplicated++;
    }
    const faults = Object.values(proxy.injected).reduce((a, b) => a + b, 0);
    const operations = counts.toggles + counts.syncs + counts.flushes;
    console.log(
      `contract firefox-v1, seed ${SEED}: ${operations} operations (${counts.toggles} toggles, ${counts.syncs} syncs, ${counts.flushes} flushes) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    console.log(`faults injected: ${JSON.stringify(proxy.injected)}, of which into flushes: ${JSON.stringify(proxy.injectedIntoFlush)}`);
    console.log(`kills: ${counts.kills} (${counts.inDoubt} toggles in doubt, resolved from the restarted client); ${counts.refused} toggles refused locally`);
    console.log(`service: ${proxy.committed.length} resolution requests committed; ${verdict.checked} (breach, class) units compared; ${summary.local} changes kept on this machine only`);
    const ok = verdict.lost === 0 && verdict.duplicated === 0 && verdict.wronglyFailed === 0 && operations >= 1000 && summary.local > 0 && proxy.committed.length > 0;
    if (!ok) console.error('reliability check FAILED');
    console.log(
      JSON.stringify({
        contract: 'firefox-v1',
        operations,
        faults,
        kills: counts.kills,
        localOnly: summary.local,
        lost: verdict.lost,
        duplicated: verdict.duplicated,
        wronglyFailed: verdict.wronglyFailed,
      }),
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    await worker?.stop();
    await proxy.close();
    await stopProcess(service.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

const contractFlag = process.argv.indexOf('--contract');
const contract = contractFlag >= 0 ? process.argv[contractFlag + 1] : 'v1';
if (contract !== 'v1' && contract !== 'firefox-v1') {
  console.error(`--contract must be v1 or firefox-v1, not ${String(contract)}`);
  process.exit(2);
}
(contract === 'firefox-v1' ? mainFirefox() : main()).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
