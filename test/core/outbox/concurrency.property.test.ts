// The outbox against a model of the person's last intents, with what the plain model
// (coalescing.property.test.ts) never does: toggles while a request is on the wire (before the
// service commits it, and after it committed but before the answer arrives), every kind of
// answer (success, 401/403/429, 500, a connection dropped before or after the commit), and the
// process dying at any of those points, the next process opening the same database.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResolutionItem } from '../../../shared/api/index.ts';
import { dataClassKey } from '../../../shared/api/index.ts';
import { Outbox, type ResolutionSender } from '../../../electron/core/outbox/Outbox.ts';
import { Puller } from '../../../electron/core/sync/Puller.ts';
import { catalogBreach, ContractServer, type Fault } from '../helpers/contractServer.ts';
import { FROZEN_NOW, memoryDatabase } from '../helpers/fixtures.ts';

const EMAILS = ['a@example.com', 'b@example.com', 'c@example.com'];
const CLASSES = ['Email addresses', 'Passwords', 'Usernames'];
const BREACHES = ['One', 'Two', 'Three', 'Four'];
const EXPOSURES: Record<string, string[]> = { 'a@example.com': ['One', 'Two', 'Three'], 'b@example.com': ['One', 'Four'], 'c@example.com': ['Two', 'Three', 'Four'] };
const affectedEmails = (breach: string) => EMAILS.filter((email) => EXPOSURES[email]!.includes(breach));

interface Toggle {
  breachId: string;
  /** Picks one of the breach's affected emails, or all of them. */
  emailPick: number | undefined;
  dataClass: string | undefined;
  resolved: boolean;
}

/** What happens to one request while it is on the wire. */
interface Wire {
  /** Toggles made after the request left, before the service looked at it. */
  beforeCommit: Toggle[];
  answer: 'ok' | Fault;
  /** Toggles made after the service answered, before the answer reached the app. */
  afterCommit: Toggle[];
  /** The process dies: before the service sees the request, or after it committed, before the answer. */
  crash: 'none' | 'before-commit' | 'after-commit';
}

const toggle: fc.Arbitrary<Toggle> = fc.record({
  breachId: fc.constantFrom(...BREACHES),
  emailPick: fc.option(fc.nat(2), { nil: undefined }),
  dataClass: fc.option(fc.constantFrom(...CLASSES, 'PASSWORDS'), { nil: undefined }),
  resolved: fc.boolean(),
});
const wire: fc.Arbitrary<Wire> = fc.record({
  beforeCommit: fc.array(toggle, { maxLength: 3 }),
  answer: fc.oneof(
    { weight: 4, arbitrary: fc.constant('ok' as const) },
    { weight: 4, arbitrary: fc.constantFrom<Fault>('drop-before', 'drop-after', 'server-error', 'rate-limited', 'unauthorized', 'forbidden') },
  ),
  afterCommit: fc.array(toggle, { maxLength: 3 }),
  crash: fc.oneof({ weight: 6, arbitrary: fc.constant('none' as const) }, { weight: 1, arbitrary: fc.constantFrom('before-commit' as const, 'after-commit' as const) }),
});
type Step = { kind: 'toggle'; toggle: Toggle } | { kind: 'flush'; wires: Wire[] } | { kind: 'restart' } | { kind: 'pull' };
const steps = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: toggle.map((t): Step => ({ kind: 'toggle', toggle: t })) },
    { weight: 3, arbitrary: fc.array(wire, { minLength: 1, maxLength: 3 }).map((wires): Step => ({ kind: 'flush', wires })) },
    { weight: 1, arbitrary: fc.constant<Step>({ kind: 'restart' }) },
    { weight: 1, arbitrary: fc.constant<Step>({ kind: 'pull' }) },
  ),
  { minLength: 1, maxLength: 30 },
);

/**
 * The service as the app reaches it, with the wire scripted request by request. A crash leaves
 * the request's promise unsettled for good: the dead process writes nothing more.
 */
class ScriptedWire implements ResolutionSender {
  readonly script: Wire[] = [];
  /** Resolves when the process dies on the wire. */
  readonly crashed: Promise<'crashed'>;
  #crash!: () => void;

  readonly server: ContractServer;
  readonly act: (toggle: Toggle) => void;

  constructor(server: ContractServer, act: (toggle: Toggle) => void) {
    this.server = server;
    this.act = act;
    this.crashed = new Promise((resolve) => (this.#crash = () => resolve('crashed')));
  }

  async postResolutions(items: readonly ResolutionItem[], signal?: AbortSignal): Promise<void> {
    const step = this.script.shift();
    if (!step) return this.server.postResolutions(items, signal);
    // Let the flush reach its await first, as a real request would.
    await Promise.resolve();
    for (const t of step.beforeCommit) this.act(t);
    if (step.crash === 'before-commit') return this.#die();
    if (step.answer !== 'ok') this.server.faults.push(step.answer);
    let failure: unknown;
    try {
      await this.server.postResolutions(items, signal);
    } catch (error) {
      failure = error;
    }
    this.server.faults.length = 0;
    for (const t of step.afterCommit) this.act(t);
    if (step.crash === 'after-commit') return this.#die();
    if (failure !== undefined) throw failure;
  }

  #die(): Promise<never> {
    this.#crash();
    return new Promise<never>(() => {});
  }
}

describe('outbox against the last intents, with toggles racing sends, failed answers and crashes', () => {
  it('the service ends with exactly the last intents: a toggle made while a send is on the wire is never dropped when that send is confirmed', async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (plan) => {
        const server = new ContractServer(
          BREACHES.map((id) => catalogBreach(id, CLASSES)),
          EXPOSURES,
        );
        try {
          await server.postResolutions([{ breachId: 'One', dataClasses: ['Passwords'], resolved: true, emails: ['a@example.com'] }]);
          const db = memoryDatabase();
          const clock = { now: FROZEN_NOW.getTime() };
          const model = new Set(server.resolvedKeys());
          let outbox: Outbox;
          const act = (t: Toggle) => {
            const affected = affectedEmails(t.breachId);
            const emails = t.emailPick === undefined ? affected : [affected[t.emailPick % affected.length]!];
            outbox.record([{ breachId: t.breachId, emails, ...(t.dataClass ? { dataClasses: [t.dataClass] } : {}), resolved: t.resolved }]);
            for (const email of emails)
              for (const name of t.dataClass ? [t.dataClass] : CLASSES) {
                const key = `${t.breachId}|${email}|${dataClassKey(name)}`;
                if (t.resolved) model.add(key);
                else model.delete(key);
              }
          };
          let sender = new ScriptedWire(server, act);
          const start = () => {
            sender = new ScriptedWire(server, act);
            outbox = new Outbox({ db, sender, now: () => clock.now, random: () => 0.5 });
          };
          start();
          await new Puller({ db, client: server }).pull();

          for (const step of plan) {
            if (step.kind === 'toggle') act(step.toggle);
            else if (step.kind === 'pull') await new Puller({ db, client: server }).pull();
            else if (step.kind === 'restart') start();
            else {
              sender.script.push(...step.wires);
              clock.now += 3_600_000;
              const outcome = await Promise.race([outbox!.flush(), sender.crashed]);
              sender.script.length = 0;
              if (outcome === 'crashed') start();
            }
          }

          // Back online for good: everything pending goes out, and the service holds the last intents.
          // (Rows a dead process left marked as on the wire count as "sending" until this flush.)
          for (let attempt = 0; attempt < 3 && outbox!.summary().pending + outbox!.summary().sending > 0; attempt++) {
            clock.now += 3_600_000;
            await outbox!.flush();
          }
          expect(outbox!.summary(), 'nothing left in the outbox').toEqual({ pending: 0, sending: 0, failed: 0 });
          expect(server.resolvedKeys(), 'the service holds the last intent for every key').toEqual(model);
        } finally {
          server.close();
        }
      }),
      { seed: 20261124, numRuns: 150 },
    );
  });
});
