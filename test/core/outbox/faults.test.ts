// The fault cases of the reliability soak, small and scripted: the real service over HTTP,
// behind the soak's fault-injecting proxy, with real JWTs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dataClassKey, type UserBreach } from '../../../shared/api/index.ts';
import { openAccountSync, type AccountSync } from '../../../electron/core/sync/openAccountSync.ts';
import { startFaultProxy, type FaultProxy, type ProxyFault } from '../../reliability/faultProxy.ts';
import { startDevService, type DevService } from '../helpers/devService.ts';
import { DevTokenSource } from '../helpers/devTokens.ts';
import { eventually } from '../../support/waitFor.ts';

let service: DevService;
let proxy: FaultProxy;
const faults: ProxyFault[] = [];
let checkpoint: ((phase: 'before' | 'after') => Promise<void> | void) | undefined;
let dir: string;
let users = 0;
const open: AccountSync[] = [];

beforeAll(async () => {
  service = await startDevService();
  proxy = await startFaultProxy({
    target: service.origin,
    retryAfterSeconds: 1,
    decide: ({ path: p }) => (p.endsWith('/resolutions') ? faults.shift() : undefined),
    checkpoint: ({ method, phase }) => (method === 'POST' ? checkpoint?.(phase) : undefined),
  });
  await service.addBreach({ id: 'FOne', dataClasses: ['Email addresses', 'Passwords'] });
  await service.addBreach({ id: 'FTwo', dataClasses: ['Email addresses', 'Passwords', 'Usernames'] });
  dir = mkdtempSync(path.join(tmpdir(), 'core-faults-'));
});
afterEach(async () => {
  faults.length = 0;
  checkpoint = undefined;
  for (const sync of open.splice(0)) await sync.close();
});
afterAll(async () => {
  await proxy?.close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function user(): Promise<{ sub: string; a: string; b: string; tokens: DevTokenSource; open(): AccountSync; file: string; state(): Promise<Set<string>> }> {
  const n = ++users;
  const sub = `faults-${n}`;
  const a = `a${n}@faults.example`;
  const b = `b${n}@faults.example`;
  const bearer = await service.createUser(sub, { [a]: ['FOne', 'FTwo'], [b]: ['FTwo'] });
  const tokens = new DevTokenSource(service.origin, sub);
  const file = path.join(dir, `${sub}.db`);
  return {
    sub,
    a,
    b,
    tokens,
    file,
    open() {
      const sync = openAccountSync({ file, apiBaseUrl: `${proxy.origin}/api/v1`, tokens, pushDelayMs: -1, backoff: { baseMs: 1, capMs: 5 }, timeoutMs: 5000 });
      open.push(sync);
      return sync;
    },
    async state() {
      return resolvedKeys(await service.list(bearer));
    },
  };
}

function resolvedKeys(items: readonly UserBreach[]): Set<string> {
  return new Set(items.flatMap((i) => i.breachedAccounts.flatMap((acc) => Object.keys(acc.resolvedDataClasses).map((name) => `${i.breach.id}|${acc.email}|${dataClassKey(name)}`))));
}

describe('outbox over HTTP with injected faults', () => {
  it.each<ProxyFault>(['drop-before', 'drop-after', 'server-error'])('%s: backs off, keeps the rows, then retries by itself', async (fault) => {
    const u = await user();
    const sync = u.open();
    await sync.scheduler.syncNow();
    sync.outbox.record([{ breachId: 'FTwo', resolved: true }]);
    faults.push(fault);
    const retried = new Promise((resolve) => sync.scheduler.onDidSync((report) => report.trigger === 'retry' && resolve(report)));
    const failed = await sync.scheduler.syncNow();
    // The automatic retry comes within milliseconds; hold it at the proxy until the state in
    // between has been looked at, so a slow machine cannot reorder the two.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    checkpoint = (phase) => (phase === 'before' ? gate : undefined);
    expect(failed).toMatchObject({ status: 'backoff', push: { status: 'backoff', delivered: 0 } });
    expect(sync.outbox.summary()).toEqual({ pending: 6, sending: 0, failed: 0 });
    expect((await u.state()).size).toBe(fault === 'drop-after' ? 6 : 0);
    release();
    expect(await retried).toMatchObject({ trigger: 'retry', status: 'ok', push: { delivered: 6, failed: 0 } });
    expect((await u.state()).size).toBe(6);
  });

  it('429: honours Retry-After before sending again', async () => {
    const u = await user();
    const sync = u.open();
    await sync.scheduler.syncNow();
    sync.outbox.record([{ breachId: 'FOne', emails: [u.a], dataClasses: ['Passwords'], resolved: true }]);
    faults.push('rate-limited');
    const before = Date.now();
    const limited = await sync.scheduler.syncNow();
    const sentAt: number[] = [];
    checkpoint = (phase) => void (phase === 'before' && sentAt.push(Date.now()));
    expect(limited.status).toBe('backoff');
    expect(limited.retryAt!).toBeGreaterThanOrEqual(before + 1000);
    expect(await sync.outbox.flush()).toMatchObject({ status: 'backoff', requests: 0 });
    // Whoever sends next (the scheduler's own retry, or a flush), it is not before Retry-After.
    await eventually('the change to be delivered after Retry-After', async () => {
      if (Date.now() >= limited.retryAt!) await sync.outbox.flush();
      return (await u.state()).size >= 1;
    });
    expect(sentAt.length).toBeGreaterThanOrEqual(1);
    expect(sentAt[0]!).toBeGreaterThanOrEqual(limited.retryAt!);
    // The service may hold the change while the scheduler's retry still reads the answer: a
    // flush joins the one running, so this waits for it to settle.
    await sync.outbox.flush();
    expect(sync.outbox.summary()).toEqual({ pending: 0, sending: 0, failed: 0 });
  });

  it('401 mid-flush: refreshes the token once and goes on', async () => {
    const u = await user();
    const sync = u.open();
    await sync.scheduler.syncNow();
    sync.outbox.record([{ breachId: 'FOne', resolved: true }]);
    faults.push('unauthorized');
    expect(await sync.scheduler.syncNow()).toMatchObject({ status: 'ok', push: { delivered: 2, requests: 1 } });
    expect(u.tokens.refreshes).toBe(1);
    expect((await u.state()).size).toBe(2);
  });

  it('403 (account disabled): stops, keeps everything, and delivers once the account is back', async () => {
    const u = await user();
    const sync = u.open();
    await sync.scheduler.syncNow();
    sync.outbox.record([{ breachId: 'FOne', resolved: true }]);
    await service.putAccount(u.sub, [u.a, u.b], true);
    expect(await sync.scheduler.syncNow()).toMatchObject({ status: 'sign-in-needed' });
    expect(sync.scheduler.state).toBe('sign-in-needed');
    expect(sync.outbox.summary()).toEqual({ pending: 2, sending: 0, failed: 0 });
    await service.putAccount(u.sub, [u.a, u.b], false);
    expect(await sync.scheduler.syncNow()).toMatchObject({ status: 'ok', push: { delivered: 2 } });
  });

  it('an email removed on the service: only its items fail, with the service reason; the rest is sent', async () => {
    const u = await user();
    const sync = u.open();
    await sync.scheduler.syncNow();
    sync.outbox.record([{ breachId: 'FTwo', resolved: true }]);
    await service.putAccount(u.sub, [u.a]);
    const report = await sync.scheduler.syncNow();
    expect(report).toMatchObject({ status: 'ok', push: { delivered: 3, failed: 3 } });
    expect(sync.outbox.items('failed').map((i) => [i.email, i.dataClass, i.failure])).toEqual(
      ['Email addresses', 'Passwords', 'Usernames'].map((name) => [u.b, name, { status: 404, reason: 'email not found for breach "FTwo"' }]),
    );
    expect([...(await u.state())].sort()).toEqual([`FTwo|${u.a}|email-addresses`, `FTwo|${u.a}|passwords`, `FTwo|${u.a}|usernames`]);
  });

  it('issue 26: dropped before the service twice, committed with the answer lost, then undone — the undo reaches the service', async () => {
    const u = await user();
    const sync = u.open();
    await sync.scheduler.syncNow();
    const key = `FOne|${u.a}|passwords`;
    sync.outbox.record([{ breachId: 'FOne', emails: [u.a], dataClasses: ['Passwords'], resolved: true }]);
    faults.push('drop-before', 'drop-before', 'drop-after');
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(await sync.outbox.flush()).toMatchObject({ status: 'backoff', errorKind: 'offline' });
      sync.outbox.resetBackoff(); // back online: try now
    }
    expect((await u.state()).has(key), 'the service committed the resolve').toBe(true);
    expect(sync.outbox.record([{ breachId: 'FOne', emails: [u.a], dataClasses: ['Passwords'], resolved: false }])).toEqual({ intents: 1 });
    expect(await sync.scheduler.syncNow()).toMatchObject({ status: 'ok', push: { delivered: 1, failed: 0 } });
    expect((await u.state()).has(key)).toBe(false);
  });

  it('killed after the service committed, then undone by the next process: the undo reaches the service', async () => {
    const u = await user();
    const first = u.open();
    await first.scheduler.syncNow();
    const key = `FOne|${u.a}|passwords`;
    first.outbox.record([{ breachId: 'FOne', emails: [u.a], dataClasses: ['Passwords'], resolved: true }]);
    let hung: (() => void) | undefined;
    const reached = new Promise<void>((arrived) => {
      checkpoint = (phase) => (phase === 'after' ? new Promise<void>((resolve) => ((hung = resolve), arrived())) : undefined);
    });
    void first.outbox.flush();
    await reached;
    checkpoint = undefined;
    expect((await u.state()).has(key)).toBe(true);

    const second = u.open(); // another process on the same file, after the crash
    expect(second.outbox.record([{ breachId: 'FOne', emails: [u.a], dataClasses: ['Passwords'], resolved: false }])).toEqual({ intents: 1 });
    expect(await second.scheduler.syncNow()).toMatchObject({ status: 'ok', push: { delivered: 1, failed: 0 } });
    expect((await u.state()).has(key)).toBe(false);
    hung!();
  });

  it('a client that dies with a request on the wire re-sends it from the same file after restart', async () => {
    const u = await user();
    const first = u.open();
    await first.scheduler.syncNow();
    first.outbox.record([{ breachId: 'FTwo', emails: [u.b], resolved: true }]);
    // The service commits; the answer never reaches this client (as if it was killed right then).
    let hung: (() => void) | undefined;
    const reached = new Promise<void>((arrived) => {
      checkpoint = (phase) => (phase === 'after' ? new Promise<void>((resolve) => ((hung = resolve), arrived())) : undefined);
    });
    void first.outbox.flush();
    await reached;
    checkpoint = undefined;
    expect(first.outbox.items().every((i) => i.state === 'sending')).toBe(true);

    const second = u.open(); // another process on the same file, after the crash
    expect(second.outbox.summary()).toEqual({ pending: 3, sending: 0, failed: 0 }); // nothing of a dead process is on the wire
    expect(await second.scheduler.syncNow()).toMatchObject({ status: 'ok', push: { delivered: 3, failed: 0 } });
    expect((await u.state()).size).toBe(3);
    expect(proxy.committed.filter((c) => c.items.some((i) => i.emails?.includes(u.b))).length).toBe(2);
    hung!();
  });
});
