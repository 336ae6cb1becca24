import { dataClassKey, emailKey, ResolveInput, type ResolutionItem } from '../../../shared/api/index.ts';
import { ApiError } from '../api/ApiError.ts';
import { classifyError, needsSignIn, type ErrorKind } from '../api/errorKind.ts';
import { accountRowsOf, confirmResolutions, getBreaches, recomputeOverlay, type StoredBreach } from '../db/breachQueries.ts';
import { relaxedDurability, type WritableDB } from '../db/Interface.ts';
import {
  claimPending,
  discardFailed,
  outboxCounts,
  outboxRows,
  reclassifyForContract,
  releaseAllInFlight,
  releaseInFlight,
  retryFailed,
  settleDeliveredMany,
  settleFailed,
  upsertIntent,
  withdrawIntent,
  type OutboxRow,
} from '../db/outboxQueries.ts';
import { Emitter, type Event } from '../../../shared/base/Emitter.ts';
import { settled } from '../../../shared/base/settled.ts';
import { BackoffState, type BackoffPolicy } from '../api/backoff.ts';
import { UnknownTargetError } from './errors.ts';
import { isolateRefused } from './isolation.ts';
import { mayHaveLanded } from './landing.ts';
import { CONTRACT_LIMITS, packIntents, type PackedRequest, type PackLimits } from './packing.ts';
import type { Intent, FlushProgress, FlushResult, OutboxItem, OutboxSummary } from './types.ts';

/** What the outbox needs of the API: `BreachAlertClient` satisfies it; tests pass fakes. */
export interface ResolutionSender {
  postResolutions(items: readonly ResolutionItem[], signal?: AbortSignal): Promise<void>;
}

export type OutboxState = 'idle' | 'flushing' | 'backoff' | 'sign-in-needed';

export interface OutboxStatus {
  state: OutboxState;
  /** Epoch ms before which no request is sent (state `backoff`). */
  retryAt?: number;
  lastError?: string;
}

export interface OutboxOptions {
  db: WritableDB;
  sender: ResolutionSender;
  backoff?: Partial<BackoffPolicy>;
  /** The account's wait, shared with the pull (`openAccountSync`); by default the outbox's own. */
  backoffState?: BackoffState;
  random?: () => number;
  now?: () => number;
  limits?: PackLimits;
  /**
   * Whether the service's contract can carry an intent; one it cannot is kept on this machine
   * (state `local`, shown as such) instead of being sent and failing. Default: everything.
   */
  canSend?: (intent: { resolved: boolean; classKey: string }) => boolean;
}

/** A breach named by toggles being recorded, with what checking and writing them needs. */
interface RecordTarget {
  breach: StoredBreach;
  /** email → codes of the classes the service confirmed resolved, emails in order. */
  confirmed: Map<string, Set<number>>;
  /** class key → the breach's spelling of the class. */
  spelling: Map<string, string>;
  codeOf: Map<string, number>;
}

/** A claimed intent on its way: `version` is the one sent, `inDoubt` what the row was before this claim. */
type Atom = Intent;

const NO_ACCOUNT_WAIT_MS = 60 * 60_000;

/**
 * Requests on the wire at once. With one, the service waited idle while each answer travelled
 * back and the next request came; with two, it has the next request as it finishes one, and
 * this process settles the answered one meanwhile. The requests of a pass hold disjoint rows, so
 * the order the service applies them in does not matter.
 */
const ON_THE_WIRE = 2;

/** A request sent, with its answer to come (a rejection is the failure). */
interface Sent {
  request: PackedRequest<Atom>;
  answer: Promise<void>;
}

/**
 * What a stopped flush puts back. `unsent`: never sent in this flush, or refused with nothing
 * applied — as much in doubt as before the claim. `unanswered`: requests whose outcome is
 * unknown — in doubt now.
 */
interface StoppedRows {
  unsent: PackedRequest<Atom>[];
  unanswered?: PackedRequest<Atom>[];
}

/** Rows re-toggled while on the wire become pending again; a few passes pick them up in the same flush. */
const MAX_PASSES = 3;

/**
 * The durable queue of the person's resolution changes (STYLE.md §5).
 *
 * `record` writes the intent and the optimistic overlay in one transaction; `flush` packs
 * pending intents into contract-valid requests, sends them (two on the wire at once), isolates refused
 * items by splitting, and backs off on transient failures. Delivery is at least once: a row
 * leaves only after a 2xx for its exact version, and the operation is idempotent per
 * (email, data class, breach), so sending again after a crash or a lost answer is safe.
 *
 * A row is in doubt from the moment it is claimed until an answer says whether its send landed
 * (durably: a crash mid-send leaves it marked). A send whose answer never came may have changed
 * the service behind the confirmed state's back, so a row in doubt is never withdrawn; the
 * person's last intent is sent instead (docs/sync.md, "Outbox states").
 */
export class Outbox {
  readonly #db: WritableDB;
  readonly #sender: ResolutionSender;
  readonly #backoff: BackoffState;
  readonly #now: () => number;
  readonly #limits: PackLimits;
  readonly #canSend: (intent: { resolved: boolean; classKey: string }) => boolean;
  readonly #onDidChange = new Emitter<OutboxSummary>();
  readonly #onDidChangeStatus = new Emitter<OutboxStatus>();
  #status: OutboxStatus = { state: 'idle' };
  #running: Promise<FlushResult> | undefined;
  #closed = false;
  #deliveries = 0;

  /** Fires after every change of the outbox's rows, with the new counts. */
  readonly onDidChange: Event<OutboxSummary> = this.#onDidChange.event;
  readonly onDidChangeStatus: Event<OutboxStatus> = this.#onDidChangeStatus.event;

  /** Listeners still registered (tests check that owners disposed theirs). */
  get listenerCount(): number {
    return this.#onDidChange.listenerCount + this.#onDidChangeStatus.listenerCount;
  }

  constructor(options: OutboxOptions) {
    this.#db = options.db;
    this.#sender = options.sender;
    this.#now = options.now ?? Date.now;
    this.#backoff = options.backoffState ?? new BackoffState({ ...(options.backoff ? { policy: options.backoff } : {}), ...(options.random ? { random: options.random } : {}), now: this.#now });
    this.#limits = options.limits ?? CONTRACT_LIMITS;
    this.#canSend = options.canSend ?? (() => true);
    // A new Outbox is a new process for this account: no send of a previous one is on the wire.
    // The account may have been opened under another contract (a switch in Settings): what waits is re-decided for this one, in one transaction.
    this.#db.transaction(() => {
      releaseAllInFlight(this.#db);
      reclassifyForContract(this.#db, this.#canSend, this.#iso());
    })();
  }

  get status(): OutboxStatus {
    return this.#status;
  }

  /** Moves whenever the service accepted something; a snapshot requested before it may be stale. */
  get deliveries(): number {
    return this.#deliveries;
  }

  /**
   * Records toggles: each (email, data class, breach) named gets this as its last intent, and
   * the views show it at once. Throws UnknownTargetError (and records nothing) when an input
   * names what the local store does not know.
   */
  record(inputs: readonly ResolveInput[]): { intents: number } {
    const parsed = inputs.map((input) => ResolveInput.parse(input));
    const now = this.#iso();
    const intents = this.#db
      .transaction(() => {
        let count = 0;
        const targets = this.#targetsOf(parsed.map((input) => input.breachId));
        for (const input of parsed) {
          const target = targets.get(input.breachId);
          if (!target) throw new UnknownTargetError(`breach "${input.breachId}" is not among this account's breaches`);
          const { breach, confirmed, spelling, codeOf } = target;
          const emails = input.emails ? [...new Set(input.emails.map(emailKey))] : [...confirmed.keys()];
          for (const email of emails) if (!confirmed.has(email)) throw new UnknownTargetError(`breach "${breach.id}" does not affect ${email} in this account`);
          const keys = input.dataClasses ? [...new Set(input.dataClasses.map(dataClassKey))] : [...spelling.keys()];
          for (const key of keys) if (!spelling.has(key)) throw new UnknownTargetError(`breach "${breach.id}" has no data class "${key}"`);
          for (const email of emails) {
            for (const key of keys) {
              // Back to what the service already has (a toggle undone before it was sent): nothing to send.
              if (confirmed.get(email)?.has(codeOf.get(key)!) === input.resolved && withdrawIntent(this.#db, { email, breachId: breach.id, classKey: key })) continue;
              const state = this.#canSend({ resolved: input.resolved, classKey: key }) ? 'pending' : 'local';
              upsertIntent(this.#db, { email, breachId: breach.id, classKey: key, dataClass: spelling.get(key)!, resolved: input.resolved }, now, state);
              count++;
            }
          }
        }
        recomputeOverlay(this.#db, targets.keys());
        return count;
      })
      .immediate();
    this.#changed();
    return { intents };
  }

  /**
   * What recording needs of the breaches named, read once for all the inputs of a call (a
   * hundred toggles name a few dozen breaches): each breach, its classes by key, and who it
   * affects with what the service confirmed for each. The confirmed state does not move while
   * recording, so one read serves every input. Breaches the store does not know are left out.
   */
  #targetsOf(breachIds: readonly string[]): Map<string, RecordTarget> {
    const ids = [...new Set(breachIds)];
    const targets = new Map<string, RecordTarget>();
    for (const breach of getBreaches(this.#db, ids).values()) {
      const spelling = new Map<string, string>();
      const codeOf = new Map<string, number>();
      breach.dataClasses.forEach((name, i) => {
        const key = dataClassKey(name);
        spelling.set(key, name);
        codeOf.set(key, breach.classCodes[i]!);
      });
      targets.set(breach.id, { breach, confirmed: new Map(), spelling, codeOf });
    }
    // By breach, then email: each breach's accounts in email order, as the inputs without emails name them.
    for (const account of accountRowsOf(this.#db, [...targets.keys()])) targets.get(account.breachId)!.confirmed.set(account.email, new Set(account.resolved));
    return targets;
  }

  /** Every row, oldest first, or those in one state. */
  items(state?: OutboxItem['state']): OutboxItem[] {
    const rows = state === 'failed' ? outboxRows(this.#db, 'failed') : state ? outboxRows(this.#db, 'pending') : outboxRows(this.#db);
    return rows.map(toItem).filter((item) => !state || item.state === state);
  }

  summary(): OutboxSummary {
    return outboxCounts(this.#db);
  }

  /** Failed items go back to pending (the person asked to try again). Returns how many. */
  retry(ids: readonly number[]): number {
    const count = retryFailed(this.#db, ids, this.#iso());
    if (count > 0) this.#changed();
    return count;
  }

  /** Failed items are dropped and the view falls back to what the service last confirmed. Returns how many. */
  discard(ids: readonly number[]): number {
    const removed = this.#db
      .transaction(() => {
        const before = outboxCounts(this.#db).failed;
        const breaches = discardFailed(this.#db, ids);
        recomputeOverlay(this.#db, breaches);
        return before - outboxCounts(this.#db).failed;
      })
      .immediate();
    if (removed > 0) this.#changed();
    return removed;
  }

  /** After a back-online signal: a wait caused by the network ends now; one the service asked for does not. */
  resetBackoff(): void {
    if (this.#backoff.connectivityRestored() && this.#status.state === 'backoff') this.#setStatus({ state: 'idle' });
  }

  /** Sends what is pending. One flush at a time: a second call while one runs gets the same result. */
  flush(options: { signal?: AbortSignal; onProgress?: (progress: FlushProgress) => void } = {}): Promise<FlushResult> {
    if (this.#closed) return Promise.resolve({ status: 'cancelled', requests: 0, delivered: 0, failed: 0, error: 'the outbox is shut down' });
    this.#running ??= this.#flush(options).finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /** Lets a running flush finish the requests on the wire and stops sending new ones. */
  async shutdown(): Promise<void> {
    this.#closed = true;
    await this.#running?.catch(() => undefined);
    this.#onDidChange.dispose();
    this.#onDidChangeStatus.dispose();
  }

  async #flush({ signal, onProgress }: { signal?: AbortSignal; onProgress?: (progress: FlushProgress) => void }): Promise<FlushResult> {
    const totals = { requests: 0, delivered: 0, failed: 0, breachIds: [] as string[] };
    const touched = new Set<string>();
    if (this.#backoff.waiting()) {
      const { notBefore: retryAt, error, kind } = this.#backoff;
      return { status: 'backoff', ...totals, retryAt, ...(error ? { error } : {}), ...(kind ? { errorKind: kind } : {}) };
    }
    this.#setStatus({ state: 'flushing' });
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const claimed = this.#claim();
      if (claimed.length === 0) break;
      for (const atom of claimed) touched.add(atom.breachId);
      totals.breachIds = [...touched];
      // Requests by runs of row ids: each settle then writes its own pages of the table.
      const queue: PackedRequest<Atom>[] = packIntents(claimed, this.#limits, (atom) => atom.id);
      let planned = queue.length;
      let remaining = claimed.length;
      // Sent and not yet answered, oldest first: up to ON_THE_WIRE at once (see below).
      const onTheWire: Sent[] = [];
      const send = () => {
        while (onTheWire.length < ON_THE_WIRE && queue.length > 0 && !this.#closed && !signal?.aborted) {
          const request = queue.shift()!;
          const answer = this.#post(request, signal);
          // Its failure is handled when it is awaited.
          answer.catch(() => undefined);
          onTheWire.push({ request, answer });
        }
      };
      while (queue.length > 0 || onTheWire.length > 0) {
        send();
        if (onTheWire.length === 0) return this.#stop('cancelled', totals, { unsent: queue }, 'cancelled');
        const { request, answer } = onTheWire.shift()!;
        try {
          await answer;
        } catch (error) {
          totals.requests++;
          const verdict = classify(error, signal);
          if (verdict === 'refused') {
            const { retry, blame } = isolateRefused(request, error instanceof ApiError ? error.fieldErrors : []);
            queue.unshift(...retry);
            planned += retry.length;
            if (blame.length > 0) {
              totals.failed += this.#settleFailed(blame, error);
              remaining -= blame.length;
            }
          } else {
            // The flush stops. What is still on the wire is waited for, so a delivered request
            // is settled rather than sent again, and one whose outcome is unknown is in doubt.
            const rows = { unsent: [...queue], unanswered: [] as PackedRequest<Atom>[] };
            (changedNothing(error, signal) ? rows.unsent : rows.unanswered).push(request);
            for (const other of onTheWire.splice(0)) {
              const outcome = await settled(other.answer);
              totals.requests++;
              if (outcome.ok) totals.delivered += this.#settleDelivered(other.request);
              else (changedNothing(outcome.error, signal) ? rows.unsent : rows.unanswered).push(other.request);
            }
            if (verdict === 'cancelled') return this.#stop('cancelled', totals, rows, 'cancelled');
            if (verdict === 'sign-in') return this.#stop('sign-in-needed', totals, rows, describe(error));
            return this.#stop('backoff', totals, rows, describe(error), error);
          }
          onProgress?.({ phase: 'push', requests: totals.requests, plannedRequests: planned, delivered: totals.delivered, failed: totals.failed, remaining });
          continue;
        }
        totals.requests++;
        // The wire is filled again before this request's thousands of rows are settled here
        // (synchronously), so the service always has the next one to work on. The rows of the
        // requests of a pass are disjoint, and a toggle in between is one made after the
        // service's answer, which settling already allows for.
        send();
        totals.delivered += this.#settleDelivered(request);
        remaining -= request.reduce((n, packed) => n + packed.atoms.length, 0);
        onProgress?.({ phase: 'push', requests: totals.requests, plannedRequests: planned, delivered: totals.delivered, failed: totals.failed, remaining });
      }
    }
    this.#backoff.succeed();
    this.#setStatus({ state: 'idle' });
    return { status: 'done', ...totals };
  }

  /** The send of one request, its failure (even a synchronous one) as the rejection. */
  #post(request: PackedRequest<Atom>, signal: AbortSignal | undefined): Promise<void> {
    try {
      return Promise.resolve(
        this.#sender.postResolutions(
          request.map((packed) => packed.item),
          signal,
        ),
      );
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  /** Marks every pending row as on the wire (and in doubt) and returns them as intents, with what each row was before. */
  #claim(): Atom[] {
    const now = this.#iso();
    const atoms = this.#db
      .transaction(() => {
        // Rows of our own store, written by `record` from checked input: read as they are, not parsed again.
        return claimPending(this.#db, now);
      })
      .immediate();
    if (atoms.length > 0) this.#changed();
    return atoms;
  }

  #settleDelivered(request: PackedRequest<Atom>): number {
    const atoms: Atom[] = [];
    for (const packed of request) for (const atom of packed.atoms) atoms.push(atom);
    // Lost to a power cut, these rows are sent again: the service answers the same.
    relaxedDurability(this.#db, () =>
      this.#db
        .transaction(() => {
          confirmResolutions(this.#db, atoms);
          settleDeliveredMany(
            this.#db,
            atoms.map((atom) => atom.id),
          );
        })
        .immediate(),
    );
    this.#deliveries++;
    this.#changed();
    return atoms.length;
  }

  #settleFailed(atoms: readonly Atom[], error: unknown): number {
    const status = error instanceof ApiError ? (error.status ?? null) : null;
    const reason = describe(error);
    const now = this.#iso();
    const count = this.#db
      .transaction(() => {
        let n = 0;
        // Refused before anything was written: only an earlier send can have landed.
        for (const atom of atoms) if (settleFailed(this.#db, atom.id, atom.version, status, reason, now, atom.inDoubt) === 'failed') n++;
        return n;
      })
      .immediate();
    this.#changed();
    return count;
  }

  /** Ends a flush early: what was claimed and not delivered goes back to pending (see {@link StoppedRows}). */
  #stop(
    status: 'cancelled' | 'sign-in-needed' | 'backoff',
    totals: { requests: number; delivered: number; failed: number; breachIds: string[] },
    { unsent, unanswered = [] }: StoppedRows,
    message: string,
    error?: unknown,
  ): FlushResult {
    const kind: ErrorKind = status === 'cancelled' ? 'cancelled' : error === undefined ? 'auth-needed' : classifyError(error);
    this.#db
      .transaction(() => {
        for (const request of unsent) for (const packed of request) for (const atom of packed.atoms) releaseInFlight(this.#db, atom.id, atom.version, atom.inDoubt);
        for (const request of unanswered) for (const packed of request) for (const atom of packed.atoms) releaseInFlight(this.#db, atom.id, atom.version, true);
      })
      .immediate();
    this.#changed();
    if (status === 'backoff') {
      // No account at the service: only the person signing up there helps, so wait an hour
      // (the newer contract's polling guidance) instead of retrying in a loop.
      const retryAt = this.#backoff.fail(kind, message, kind === 'no-account' ? NO_ACCOUNT_WAIT_MS : error instanceof ApiError ? error.retryAfterMs : undefined);
      this.#setStatus({ state: 'backoff', retryAt, lastError: message });
      return { status, ...totals, retryAt, error: message, errorKind: kind };
    }
    this.#setStatus(status === 'sign-in-needed' ? { state: 'sign-in-needed', lastError: message } : { state: 'idle' });
    return { status, ...totals, error: message, errorKind: kind };
  }

  #changed(): void {
    if (this.#onDidChange.listenerCount > 0) this.#onDidChange.fire(this.summary());
  }

  #setStatus(status: OutboxStatus): void {
    this.#status = status;
    this.#onDidChangeStatus.fire(status);
  }

  #iso(): string {
    return new Date(this.#now()).toISOString();
  }
}

function toItem(row: OutboxRow): OutboxItem {
  return {
    id: row.id,
    email: row.email,
    breachId: row.breachId,
    dataClass: row.dataClass,
    resolved: row.resolved,
    state: row.state === 'failed' ? 'failed' : row.state === 'local' ? 'local' : row.sentVersion !== null ? 'sending' : 'pending',
    attempts: row.attempts,
    failure: row.state === 'failed' ? { status: row.failureStatus, reason: row.failureReason ?? '' } : null,
    updatedAt: row.updatedAt,
  };
}

type Verdict = 'refused' | 'sign-in' | 'transient' | 'cancelled';

/** A failed request that certainly changed nothing at the service (refused, or never sent as far as anyone can tell); otherwise its rows are in doubt. */
function changedNothing(error: unknown, signal: AbortSignal | undefined): boolean {
  const verdict = classify(error, signal);
  return verdict !== 'cancelled' && (verdict === 'refused' || !mayHaveLanded(classifyError(error)));
}

/**
 * What the outbox does about a failed request, from the shared error kinds: the request's
 * fault (invalid, not found) splits and isolates; a missing sign-in waits for the person;
 * aborts are ours; everything else (429, 5xx, network, timeouts, an answer off the contract,
 * a failure of our own) is worth trying again later.
 */
function classify(error: unknown, signal: AbortSignal | undefined): Verdict {
  if (signal?.aborted) return 'cancelled';
  const kind = classifyError(error);
  if (kind === 'invalid' || kind === 'not-found') return 'refused';
  if (needsSignIn(kind)) return 'sign-in';
  if (kind === 'cancelled') return 'cancelled';
  return 'transient';
}

/** The service's own words for a failure: problem `detail`, else each located error. */
function describe(error: unknown): string {
  if (error instanceof ApiError) {
    const located = error.fieldErrors.map((e) => e.message).join('; ');
    return error.detail || located || error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
