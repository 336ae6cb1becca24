/**
 * A test double of the core at the component level: the contract's channels over in-memory
 * state. Honest by construction: arguments are parsed with the channel's input schema (bad ones
 * are refused as the core's router refuses them), results are checked against the output
 * schema, events against theirs, and filtering uses the contract's own `matchesBreachQuery`.
 */
import { compareBreaches, matchesBreachQuery } from '../../shared/api/filter.ts';
import { includeSensitiveUnder, isShown, sensitivePolicyOf } from '../../shared/api/sensitive.ts';
import { dataClassKey, emailKey } from '../../shared/api/primitives.ts';
import type { Breach, UserBreach } from '../../shared/api/breach.ts';
import { channels, type ChannelArgs, type ChannelName, type ChannelResult } from '../../shared/ipc/contract.ts';
import { events, type EventName, type EventPayload } from '../../shared/ipc/events.ts';
import type { IpcError } from '../../shared/ipc/protocol.ts';
import type { AuthStatus, BreachDetail, BreachRow, CellState, Settings, SyncStatus } from '../../shared/ipc/views.ts';
import { applySettingsChange } from '../../shared/ipc/views.ts';
import { parseExpression, printExpression, type Direction, type FilterTerm, type Hop } from '../../shared/graph/expression.ts';
import { NodeResponse, type NodeItem } from '../../shared/graph/response.ts';
import type { GraphQueryResult } from '../../shared/ipc/contract.ts';
import type { FeedStatus } from '../../shared/ipc/feed.ts';
import type { Preferences } from '../../shared/catalog/preferences.ts';
import { creditsHibp } from '../../electron/core/checks/hibpCredit.ts';
import { isHiddenByDefault, type BreachDetails } from '../../shared/catalog/details.ts';
import { compileFilter } from '../../shared/search/filter.ts';
import { summarizeReport } from '../../shared/report/summary.ts';
import { UNKNOWN_CHECKS, type BreachSourceView, type ChecksView, type PwnedRange } from '../../shared/ipc/checks.ts';
import { UNKNOWN_ADDRESSES, type AddressesView } from '../../shared/ipc/addresses.ts';
import { FakeLogins } from './fakeLogins.ts';
import { filterRecordOf, toSearchDocument } from '../../shared/search/document.ts';
import { matchesListText, understandListText } from '../../shared/search/listText.ts';
import { DEFAULT_SETTINGS } from '../support/settings.ts';

export interface FakeBreach {
  breach: Breach;
  /** email → resolved data classes (server state) with their resolvedAt. */
  accounts: Record<string, Record<string, { resolvedAt?: string }>>;
  isNew?: boolean;
}

interface Intent {
  breachId: string;
  email: string;
  dataClass: string;
  resolved: boolean;
  failed?: string;
  /** Kept on this machine: the service's contract cannot take it (never flushed). */
  local?: boolean;
}

export type SignInBehaviour = 'succeed' | 'hang' | 'fail';

export interface FakeCoreOptions {
  breaches?: FakeBreach[];
  auth?: Partial<AuthStatus>;
  settings?: Partial<Settings>;
  sync?: Partial<SyncStatus>;
  now?: () => Date;
}

export const ALICE = 'alice@example.com';
export const BOB = 'bob@example.com';

/** The service's minute precision. */
function minutes(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16) + ':00Z';
}

function ipcError(code: IpcError['code'], message: string, issues?: IpcError['issues']): IpcError {
  return issues ? { code, message, issues } : { code, message };
}

export class FakeCore {
  readonly calls: { channel: string; args: unknown }[] = [];
  breaches: FakeBreach[];
  auth: AuthStatus;
  settings: Settings;
  feed: FeedStatus = { url: 'http://127.0.0.1:6060/rtdb', defaultUrl: 'http://127.0.0.1:6060/rtdb', auth: 'none', hasServiceAccountKey: false, hasSecret: false };
  searchRemote: ChannelResult<'search-remote-get'> = { hasToken: false };
  /** The details feed's entries, by breach id (joined to rows and details as the core does). */
  details = new Map<string, BreachDetails>();
  logos = new Map<string, string>();
  openedLinks: string[] = [];
  /** What the desktop host's save dialog does next (the core answers 'unavailable' in a host without print-to-PDF). */
  pdfSave: 'save' | 'cancel' | 'no-host' = 'save';
  savedPdfs: string[] = [];
  preferences: Preferences = { hiddenBreaches: [], showFlaggedBreaches: false, notifications: { newBreaches: true } };
  sync: SyncStatus;
  readonly outbox = new Map<string, Intent>();
  signInBehaviour: SignInBehaviour = 'succeed';
  signInError = 'The identity provider at http://127.0.0.1:6060/oidc could not be reached.';
  /** The service refuses intents this returns a reason for (at flush time). */
  refuse: (intent: Intent) => string | undefined = () => undefined;
  /** As the core under the newer Monitor contract: intents this returns true for stay local. */
  keepLocal: (intent: Intent) => boolean = () => false;
  /** Make one channel fail with this error until cleared. */
  readonly failures = new Map<string, IpcError>();
  /** Calls whose answer is held back until released, to test loading states (`which`: only the calls it picks). */
  readonly gates = new Map<string, { released: Promise<void>; which: (args: unknown) => boolean }>();
  #listeners = new Map<string, Set<(payload: unknown) => void>>();
  #cancelSignIn?: () => void;
  #now: () => Date;
  /** Values per page of `graph-query` (the engine's is 500; tests page through a few). */
  graphPageSize = 500;
  /** What the remote graph endpoint does: answer (over the same breach graph), or be unreachable. */
  graphRemoteBehaviour: 'answer' | 'unreachable' = 'answer';
  graphRemoteUrl: string | undefined;
  /** Whether the report says Have I Been Pwned's data is included (the samples are its breaches). */
  includesHibp = true;
  /** Keys per endpoint, as the core keeps them in the secret store. */
  readonly graphKeys = new Map<string, string>();
  readonly #graphCache = new Map<string, GraphQueryResult>();
  /** What the service said about its source and each address (the core's `checks-get`). */
  checks: ChecksView = UNKNOWN_CHECKS;
  /** The person's addresses as a service that sends codes would list them (`addresses-*`). */
  addresses: AddressesView = { ...UNKNOWN_ADDRESSES, served: 'yes', verification: 'code' };
  /** The imported logins and the export files this fake has on disk (`logins-*`). */
  readonly logins = new FakeLogins({ emit: (event, payload) => this.emit(event, payload), now: () => this.#now(), breaches: () => this.breaches.map((item) => item.breach) });
  /** As Electron's preload: the path of a chosen file (set by a test to play the desktop host; absent, the page is in a browser). */
  pathForFile: ((file: File) => string) | undefined;
  /** The kept Have I Been Pwned key (the core keeps it in the keychain and never returns it). */
  hibpKey: string | undefined;
  keyRemembered = true;
  /** Pwned Passwords' answers by prefix, padding already removed (the core drops it). */
  readonly pwnedRanges = new Map<string, PwnedRange['entries']>();
  /** Every prefix the page asked for: all that may leave the page. */
  readonly pwnedPrefixes: string[] = [];

  constructor(options: FakeCoreOptions = {}) {
    this.breaches = options.breaches ?? sampleBreaches();
    this.auth = { state: 'signed-in', account: { accountId: 'acc-1', issuer: DEFAULT_SETTINGS.issuer, email: ALICE }, remembered: true, secretsKeptIn: 'keychain', ...options.auth };
    this.settings = { ...DEFAULT_SETTINGS, ...options.settings };
    this.#now = options.now ?? (() => new Date());
    this.sync = { online: true, phase: 'idle', pending: 0, failed: 0, lastSyncAt: minutes(this.#now().getTime() - 26 * 3600_000), ...options.sync };
  }

  // ── the bridge ────────────────────────────────────────────────────────────

  invoke = async (channel: string, args?: unknown): Promise<unknown> => {
    this.calls.push({ channel, args });
    if (!Object.hasOwn(channels, channel)) throw ipcError('unknown-channel', `no channel named "${channel}"`);
    const name = channel as ChannelName;
    const parsed = channels[name].input.safeParse(args ?? {});
    if (!parsed.success)
      throw ipcError(
        'invalid-arguments',
        `invalid arguments for "${channel}"`,
        parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || '(root)', message: issue.message })),
      );
    const gate = this.gates.get(name);
    if (gate?.which(parsed.data)) await gate.released;
    const failure = this.failures.get(name);
    if (failure) throw failure;
    const result = await this.#handle(name, parsed.data as never);
    // A double that answers outside the schema would let the UI pass against lies.
    const answer = channels[name].output.parse(result);
    await this.inTransit.get(name);
    return answer;
  };

  on = (event: string, listener: (payload: unknown) => void): (() => void) => {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  };

  #connectionListeners = new Set<(connected: boolean) => void>();

  /** As the browser host's transport does: its event stream can drop and come back. */
  onConnection = (listener: (connected: boolean) => void): (() => void) => {
    this.#connectionListeners.add(listener);
    return () => this.#connectionListeners.delete(listener);
  };

  /**
   * What the transport says, as the connection first opens, about the first answers: the
   * browser host's stream hello ("no event since they were computed") when false; true by
   * default, as a transport that cannot tell.
   */
  firstAnswersMissed = true;

  missedSinceFirstAnswers = (): boolean => this.firstAnswersMissed;

  setConnected(connected: boolean): void {
    for (const listener of this.#connectionListeners) listener(connected);
  }

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    const checked = events[event].parse(payload);
    for (const listener of this.#listeners.get(event) ?? []) listener(checked);
  }

  callsOf(channel: ChannelName): unknown[] {
    return this.calls.filter((c) => c.channel === channel).map((c) => c.args);
  }

  /** Holds every answer of `channel` (or those whose parsed arguments `which` picks) until the returned function is called. */
  readonly inTransit = new Map<ChannelName, Promise<void>>();

  /**
   * Answers of `channel` are computed at once but reach the page only when the returned function
   * is called: an answer that travels slower than the events sent after it (the browser host's
   * HTTP and its event stream are separate connections).
   */
  delayAnswers(channel: ChannelName): () => void {
    let release!: () => void;
    this.inTransit.set(channel, new Promise<void>((resolve) => (release = resolve)));
    return () => {
      this.inTransit.delete(channel);
      release();
    };
  }

  hold(channel: ChannelName, which: (args: unknown) => boolean = () => true): () => void {
    let release!: () => void;
    this.gates.set(channel, { released: new Promise<void>((resolve) => (release = resolve)), which });
    return () => {
      this.gates.delete(channel);
      release();
    };
  }

  // ── handlers ──────────────────────────────────────────────────────────────

  async #handle<C extends ChannelName>(channel: C, args: ChannelArgs<C>): Promise<ChannelResult<C>> {
    const handlers: { [K in ChannelName]: (args: ChannelArgs<K>) => ChannelResult<K> | Promise<ChannelResult<K>> } = {
      'auth-status': () => this.auth,
      'auth-sign-in': () => this.#signIn(),
      'auth-cancel': () => {
        this.#cancelSignIn?.();
        return {};
      },
      'auth-sign-out': ({ deleteLocalData }) => {
        if (deleteLocalData) {
          this.breaches = [];
          this.outbox.clear();
        }
        this.#setAuth({ state: 'signed-out', remembered: this.auth.remembered });
        return this.auth;
      },
      'breaches-list': (query) => this.#list(query),
      'breach-get': ({ id }) => {
        const stored = this.breaches.find((b) => b.breach.id === id);
        if (!stored) throw ipcError('not-found', `no breach "${id}"`);
        return this.#detail(stored);
      },
      // The catalog-change notice is exercised against the real core (test/e2e/catalogSwitch.e2e.test.ts).
      'catalog-notice-dismiss': () => ({}),
      'breaches-domains': () => [...new Set(this.breaches.map((b) => b.breach.domain).filter((d) => d !== ''))].sort(),
      // Search is exercised end to end in Chromium against the real core (test/e2e/search.e2e.test.ts).
      'search-run': () => {
        throw ipcError('unavailable', 'search is not part of the renderer fake');
      },
      'search-remote-get': () => this.searchRemote,
      // The instance as the core keeps it: the token is never returned, only whether one is saved.
      'search-remote-set': ({ token, ...instance }) => {
        this.searchRemote = { instance, hasToken: token !== undefined || this.searchRemote.hasToken };
        return this.searchRemote;
      },
      'breaches-data-classes': () => [...new Set(this.breaches.flatMap((b) => b.breach.dataClasses))].sort((a, b) => a.localeCompare(b)),
      'resolutions-set': (change) => this.#resolve(change),
      'outbox-retry': ({ breachId }) => {
        const touched = [...this.outbox.values()].filter((intent) => !breachId || intent.breachId === breachId).map((intent) => intent.breachId);
        for (const intent of this.outbox.values()) if (!breachId || intent.breachId === breachId) delete intent.failed;
        if (this.sync.online) this.#flush();
        this.#outboxChanged('outbox', touched);
        return {};
      },
      'outbox-discard': ({ breachId }) => {
        const touched: string[] = [];
        for (const [key, intent] of this.outbox) {
          if (!intent.failed || (breachId && intent.breachId !== breachId)) continue;
          this.outbox.delete(key);
          touched.push(intent.breachId);
        }
        this.#outboxChanged('outbox', touched);
        return {};
      },
      'sync-now': () => {
        if (this.sync.online) this.#flush();
        this.#setSync({ lastSyncAt: minutes(this.#now().getTime()) });
        this.emit('data-changed', { reason: 'sync', revision: ++this.#revision });
        return this.sync;
      },
      'sync-status': () => this.sync,
      'overview-get': () => this.#overview(),
      'report-save-pdf': ({ fileName }) => {
        if (this.pdfSave === 'no-host') throw ipcError('unavailable', 'Saving a PDF directly needs the desktop app. Use Print and choose “Save as PDF” as the printer.');
        if (this.pdfSave === 'cancel') return { saved: false };
        const file = `/home/person/Documents/${fileName}`;
        this.savedPdfs.push(file);
        return { saved: true, file };
      },
      // As the core: the summary of the very report report-get gives.
      'report-summary': async () => summarizeReport(await handlers['report-get']({}), this.#now().getTime()),
      'report-get': () => {
        // As the core: the one sensitive policy, and how many it left out.
        const shown = this.#underPolicy();
        const hidden = this.breaches.length - shown.length;
        return {
          generatedAt: minutes(this.#now().getTime()),
          ...(this.auth.account?.email ? { account: this.auth.account.email } : {}),
          includesHibp: this.includesHibp && this.#creditsHibp(shown.length),
          ...(this.checks.source === 'demo' ? { demo: true } : {}),
          breaches: [...shown]
            .sort((a, b) => compareBreaches(a.breach, b.breach))
            .map((stored) => {
              const { breach, accounts } = this.#detail(stored);
              return { breach, accounts };
            }),
          ...(hidden > 0 ? { hiddenSensitive: hidden } : {}),
        };
      },
      'fix-apply': ({ intents, resolved }) => {
        // All or nothing, as the core's outbox: check every intent before recording any.
        const before = new Map(this.outbox);
        try {
          for (const intent of intents) this.#resolve({ breachId: intent.breachId, emails: intent.emails, dataClasses: intent.dataClasses, resolved }, { quiet: true });
        } catch (error) {
          this.outbox.clear();
          for (const [key, value] of before) this.outbox.set(key, value);
          throw error;
        }
        this.#outboxChanged(
          'resolution',
          intents.map((intent) => intent.breachId),
        );
        return { changed: intents.reduce((sum, intent) => sum + intent.emails.length * intent.dataClasses.length, 0) };
      },
      'settings-get': () => this.settings,
      'settings-set': (patch) => {
        // As the core (electron/core/handlers/settingsHandlers.ts): another service, issuer or contract only while signed out.
        const switching =
          (patch.serviceUrl !== undefined && patch.serviceUrl !== this.settings.serviceUrl) ||
          (patch.issuer !== undefined && patch.issuer !== this.settings.issuer) ||
          (patch.apiContract !== undefined && (patch.apiContract ?? 'v1') !== (this.settings.apiContract ?? 'v1'));
        if (switching && this.auth.state !== 'signed-out') throw ipcError('conflict', 'Sign out before switching to another service.');
        this.settings = applySettingsChange(this.settings, patch);
        return this.settings;
      },
      'graph-query': (args) => this.#graphQuery(args),
      'graph-remote-get': () => this.#graphRemoteView(),
      'graph-remote-set': ({ url, apiKey }) => {
        this.graphRemoteUrl = url;
        if (apiKey !== undefined) this.graphKeys.set(url, apiKey);
        return this.#graphRemoteView();
      },
      // The details feed, as the core answers it (credentials are kept, never shown).
      'feed-status': () => this.feed,
      'feed-sync': () => (this.feed = { ...this.feed, lastSync: { at: this.#now().toISOString(), status: 'unchanged', count: 0, skipped: [] } }),
      'feed-configure': ({ url, auth, serviceAccountKey, secret }) => {
        this.feed = {
          ...this.feed,
          ...(url !== undefined ? { url: url ?? this.feed.defaultUrl } : {}),
          ...(auth ? { auth } : {}),
          ...(serviceAccountKey ? { hasServiceAccountKey: true } : {}),
          ...(secret ? { hasSecret: true } : {}),
        };
        return this.feed;
      },
      'breach-logo': ({ id }) => (this.logos.has(id) ? { dataUrl: this.logos.get(id)! } : {}),
      'open-link': ({ url }) => {
        this.openedLinks.push(url);
        return {};
      },
      'preferences-get': () => this.preferences,
      'preferences-set': (preferences) => (this.preferences = preferences),
      'checks-get': () => this.checks,
      'breach-source-get': () => this.#sourceView(),
      'breach-source-set': ({ choice, apiKey, forgetKey }) => {
        if (choice === 'hibp' && !apiKey && !this.hibpKey)
          throw ipcError('invalid-arguments', 'Paste your Have I Been Pwned API key to check your addresses with it.', [{ path: 'apiKey', message: 'Paste your API key' }]);
        const wasDemo = this.checks.source === 'demo';
        this.settings = applySettingsChange(this.settings, { breachSource: choice, ...(choice === 'service' ? {} : { serviceUrl: DEFAULT_SETTINGS.serviceUrl, issuer: DEFAULT_SETTINGS.issuer }) });
        if (apiKey) this.hibpKey = apiKey;
        if (forgetKey) this.hibpKey = undefined;
        let demoCleared: number | undefined;
        if (choice !== 'demo') {
          demoCleared = wasDemo ? this.breaches.length : 0;
          if (wasDemo) {
            this.breaches = [];
            this.checks = { ...UNKNOWN_CHECKS, demoClearedAt: this.#now().toISOString() };
            this.emit('checks-changed', this.checks);
            this.emit('data-changed', { reason: 'sync', revision: ++this.#revision });
          }
        }
        return { ...this.#sourceView(), ...(demoCleared !== undefined ? { demoCleared } : {}) };
      },
      'passwords-range': ({ prefix }) => {
        this.pwnedPrefixes.push(prefix);
        return { entries: this.pwnedRanges.get(prefix) ?? [] };
      },
      'addresses-get': () => this.addresses,
      'addresses-add': ({ email }) => {
        const key = emailKey(email);
        if (this.addresses.addresses.some((address) => address.email === key)) throw ipcError('conflict', `${key} is already on your list`, [{ path: 'email', message: 'is already on your list' }]);
        const added = {
          email: key,
          verified: false,
          verifiedBy: null,
          origin: 'added' as const,
          removable: true,
          state: 'unverified' as const,
          addedAt: this.#now().toISOString(),
          breachCount: null,
          checkedAt: null,
          problem: null,
          codeExpiresAt: null,
        };
        return this.#setAddresses([...this.addresses.addresses, added]);
      },
      'addresses-removal': ({ email }) => ({ email: emailKey(email), breaches: 0, onlyThisAddress: 0, resolutions: 0 }),
      'addresses-remove': ({ email }) => this.#setAddresses(this.addresses.addresses.filter((address) => address.email !== emailKey(email))),
      'addresses-verify': ({ email }) =>
        this.#setAddresses(
          this.addresses.addresses.map((address) => (address.email === emailKey(email) ? { ...address, verified: true, verifiedBy: 'code' as const, state: 'pending' as const } : address)),
        ),
      'addresses-resend': () => this.addresses,
      'logins-get': () => this.logins.view(),
      'logins-import': (args) => this.logins.import(args),
      'logins-import-cancel': (args) => this.logins.cancelImport(args),
      'logins-check-cancel': () => this.logins.cancelCheck(),
      'logins-resolve': (args) => this.logins.resolve(args),
      'logins-forget': () => this.logins.forget(),
      'logins-delete-export': (args) => this.logins.deleteExport(args),
    };
    return (handlers[channel] as (args: ChannelArgs<C>) => ChannelResult<C>)(args);
  }

  #setAddresses(addresses: AddressesView['addresses']): AddressesView {
    this.addresses = { ...this.addresses, addresses };
    this.emit('addresses-changed', this.addresses);
    return this.addresses;
  }

  #sourceView(): BreachSourceView {
    return {
      choice: this.settings.breachSource ?? null,
      hasHibpKey: this.hibpKey !== undefined,
      keyHint: this.hibpKey ? this.hibpKey.slice(-4) : null,
      keyRemembered: this.keyRemembered,
      localService: 'restarted',
    };
  }

  #graphRemoteView() {
    return this.graphRemoteUrl ? { url: this.graphRemoteUrl, hasKey: this.graphKeys.has(this.graphRemoteUrl) } : { hasKey: false };
  }

  /** The core's `graph-query`: the embedded engine's rules (docs/graph.md) over these breaches. */
  #graphQuery({ endpoint, maxPages, nodes, property, nextToken }: ChannelArgs<'graph-query'>): GraphQueryResult {
    const fetchedAt = this.#now().toISOString();
    const graph = new FakeGraph(this.breaches.map((b) => b.breach));
    const answer = (source: GraphQueryResult['source']): GraphQueryResult => {
      const pages: NodeResponse[] = [];
      let token = nextToken;
      do {
        const page = graph.query(nodes, property, token, this.graphPageSize);
        pages.push(page);
        token = page.nextToken;
      } while (token !== undefined && pages.length < maxPages);
      const response = NodeResponse.parse(pages.reduce((merged, page) => mergeFakePages(merged, page)));
      return { response, source, fetchedAt, pages: pages.length, complete: response.nextToken === undefined };
    };
    if (endpoint === 'embedded') return answer('embedded');
    const url = this.graphRemoteUrl;
    if (!url) throw ipcError('invalid-arguments', 'Add a remote graph endpoint in the graph pane first.');
    const cacheKey = JSON.stringify([url, [...new Set(nodes)].sort(), property]);
    if (this.graphRemoteBehaviour === 'unreachable') {
      const reason = `${url} could not be reached`;
      const cached = nextToken === undefined ? this.#graphCache.get(cacheKey) : undefined;
      if (cached) return { response: cached.response, source: 'cache', fetchedAt: cached.fetchedAt, pages: 0, complete: true, offlineReason: reason };
      throw ipcError('unavailable', `The graph endpoint ${reason}.`);
    }
    if (!this.graphKeys.has(url)) throw ipcError('invalid-arguments', `The graph endpoint at ${url} refused the request: an API key is required (401).`);
    const result = answer('network');
    // Whole answers only, as the core's cache: never a capped or continued one.
    if (result.complete && nextToken === undefined) this.#graphCache.set(cacheKey, result);
    return result;
  }

  #setAuth(status: AuthStatus): void {
    this.auth = status;
    this.emit('auth-changed', status);
  }

  setSync(update: Partial<SyncStatus>): void {
    this.#setSync(update);
  }

  #setSync(update: Partial<SyncStatus>): void {
    const intents = [...this.outbox.values()];
    const local = intents.filter((i) => i.local).length;
    this.sync = { ...this.sync, pending: intents.filter((i) => !i.failed && !i.local).length, failed: intents.filter((i) => i.failed).length, ...(local > 0 ? { localOnly: local } : {}), ...update };
    this.emit('sync-changed', this.sync);
  }

  #signIn(): Promise<AuthStatus> | AuthStatus {
    const account = this.auth.account ?? { accountId: 'acc-1', issuer: this.settings.issuer, email: ALICE };
    if (this.signInBehaviour === 'fail') throw ipcError('unavailable', this.signInError);
    if (this.signInBehaviour === 'succeed') {
      this.#setAuth({ state: 'signed-in', account, remembered: true });
      return this.auth;
    }
    const before = this.auth;
    this.#setAuth({ ...before, state: 'signing-in' });
    return new Promise((_resolve, reject) => {
      this.#cancelSignIn = () => {
        this.#cancelSignIn = undefined;
        this.#setAuth(before);
        reject(ipcError('cancelled', 'sign-in was cancelled'));
      };
    });
  }

  #resolve(change: ChannelArgs<'resolutions-set'>, options: { quiet?: boolean } = {}): ChannelResult<'resolutions-set'> {
    const stored = this.breaches.find((b) => b.breach.id === change.breachId);
    if (!stored) throw ipcError('not-found', `no breach "${change.breachId}"`);
    const classes = (change.dataClasses ?? stored.breach.dataClasses).map((name) => {
      const own = stored.breach.dataClasses.find((c) => dataClassKey(c) === dataClassKey(name));
      if (!own) throw ipcError('invalid-arguments', `"${change.breachId}" did not expose "${name}"`);
      return own;
    });
    const emails =
      change.emails?.map((email) => {
        const own = Object.keys(stored.accounts).find((e) => emailKey(e) === emailKey(email));
        if (!own) throw ipcError('not-found', `"${email}" is not affected by "${change.breachId}"`);
        return own;
      }) ?? Object.keys(stored.accounts);
    for (const email of emails)
      for (const dataClass of classes) {
        const key = `${stored.breach.id}|${email}|${dataClass}`;
        const server = stored.accounts[email]?.[dataClass] !== undefined;
        // Coalescing to the last intent; one that equals the server state cancels out.
        if (server === change.resolved) this.outbox.delete(key);
        else {
          const intent: Intent = { breachId: stored.breach.id, email, dataClass, resolved: change.resolved };
          this.outbox.set(key, this.keepLocal(intent) ? { ...intent, local: true } : intent);
        }
      }
    // As the core: the reply carries the breach as it now shows and the revision of the one event the toggle causes.
    const revision = options.quiet ? this.#revision : this.#outboxChanged('resolution', [stored.breach.id]);
    return { detail: this.#detail(stored), revision };
  }

  #flush(): void {
    for (const [key, intent] of this.outbox) {
      if (intent.failed || intent.local) continue;
      const reason = this.refuse(intent);
      if (reason) {
        intent.failed = reason;
        continue;
      }
      const stored = this.breaches.find((b) => b.breach.id === intent.breachId);
      const account = stored?.accounts[intent.email];
      if (account) {
        if (intent.resolved) account[intent.dataClass] ??= { resolvedAt: minutes(this.#now().getTime()) };
        else delete account[intent.dataClass];
      }
      this.outbox.delete(key);
    }
  }

  #revision = 0;

  #outboxChanged(reason: 'resolution' | 'outbox', breachIds: string[]): number {
    this.#setSync({});
    const revision = ++this.#revision;
    this.emit('data-changed', { reason, breachIds: [...new Set(breachIds)], revision });
    return revision;
  }

  #cell(stored: FakeBreach, email: string, dataClass: string): CellState {
    const server = stored.accounts[email]?.[dataClass];
    const intent = this.outbox.get(`${stored.breach.id}|${email}|${dataClass}`);
    if (intent?.failed) return { resolved: server !== undefined, ...(server?.resolvedAt ? { resolvedAt: server.resolvedAt } : {}), pending: false, failed: { reason: intent.failed } };
    if (intent?.local) return { resolved: intent.resolved, pending: false, localOnly: true };
    if (intent) return { resolved: intent.resolved, pending: true };
    return { resolved: server !== undefined, ...(server?.resolvedAt ? { resolvedAt: server.resolvedAt } : {}), pending: false };
  }

  #flagged(id: string): boolean {
    const details = this.details.get(id);
    return details !== undefined && isHiddenByDefault(details);
  }

  /** As the core: credit when something is shown and the service did not say its data is demo data. */
  #creditsHibp(shown: number): boolean {
    return shown > 0 && creditsHibp(this.checks.source === 'unknown' ? undefined : this.checks.source);
  }

  #detail(stored: FakeBreach): BreachDetail {
    return {
      breach: stored.breach,
      isNew: stored.isNew ?? false,
      includesHibp: this.#creditsHibp(1),
      ...(this.details.has(stored.breach.id) ? { details: this.details.get(stored.breach.id)! } : {}),
      accounts: Object.keys(stored.accounts)
        .sort()
        .map((email) => ({ email, cells: Object.fromEntries(stored.breach.dataClasses.map((c) => [c, this.#cell(stored, email, c)])) })),
    };
  }

  /** The person's view as a service answer (overlay included), for the contract's filter. */
  #asUserBreach(stored: FakeBreach): UserBreach {
    const detail = this.#detail(stored);
    return {
      breach: stored.breach,
      breachedAccounts: detail.accounts.map((a) => ({
        email: a.email,
        resolvedDataClasses: Object.fromEntries(
          Object.entries(a.cells)
            .filter(([, cell]) => cell.resolved)
            .map(([name]) => [name, {}]),
        ),
      })),
    };
  }

  #row(stored: FakeBreach): BreachRow {
    const detail = this.#detail(stored);
    const cells = detail.accounts.flatMap((a) => Object.values(a.cells));
    return {
      breach: stored.breach,
      emails: detail.accounts.map((a) => a.email),
      dataClasses: stored.breach.dataClasses.map((name) => ({
        name,
        resolved: detail.accounts.filter((a) => a.cells[name]?.resolved).length,
        total: detail.accounts.length,
      })),
      unresolved: cells.filter((c) => !c.resolved).length,
      pending: cells.filter((c) => c.pending).length,
      failed: cells.filter((c) => c.failed).length,
      isNew: stored.isNew ?? false,
      ...(this.details.has(stored.breach.id) ? { details: this.details.get(stored.breach.id)! } : {}),
    };
  }

  /** The breaches the sensitive policy shows (the person's setting). */
  #underPolicy(): FakeBreach[] {
    const policy = sensitivePolicyOf(this.settings);
    return this.breaches.filter((stored) => isShown(stored.breach, policy));
  }

  #list(asked: ChannelArgs<'breaches-list'>) {
    const query = { ...asked, includeSensitive: includeSensitiveUnder(sensitivePolicyOf(this.settings), asked.includeSensitive) };
    const shown = this.#shown(query);
    const hiddenSensitive = query.includeSensitive ? 0 : this.#shown({ ...query, includeSensitive: true }).length - shown.length;
    const rows = shown.map((stored) => this.#row(stored));
    const sorters: Record<typeof query.sort, (a: BreachRow, b: BreachRow) => number> = {
      breachDate: (a, b) => compareBreaches(a.breach, b.breach),
      addedDate: (a, b) => Date.parse(b.breach.addedDate) - Date.parse(a.breach.addedDate) || compareBreaches(a.breach, b.breach),
      name: (a, b) => a.breach.id.localeCompare(b.breach.id),
      unresolved: (a, b) => b.unresolved - a.unresolved || compareBreaches(a.breach, b.breach),
    };
    rows.sort(sorters[query.sort]);
    const unresolvedByDataClass: Record<string, number> = {};
    for (const row of rows) for (const summary of row.dataClasses) if (summary.resolved < summary.total) unresolvedByDataClass[summary.name] = (unresolvedByDataClass[summary.name] ?? 0) + 1;
    const window = rows.slice(query.offset, query.offset + query.limit);
    return { rows: window, total: rows.length, unresolvedByDataClass, hiddenSensitive, includesHibp: this.#creditsHibp(window.length) };
  }

  #shown(query: ChannelArgs<'breaches-list'>): FakeBreach[] {
    const knownClasses = [...new Set(this.breaches.flatMap((stored) => stored.breach.dataClasses))];
    // As the core: the text box understood as shared/search/listText.ts says.
    const text = query.text === undefined ? undefined : understandListText(query.text, { dataClasses: knownClasses });
    // As the core: the advanced filter through the search interface's filter engine.
    const admits = query.metadataFilter ? compileFilter(query.metadataFilter) : () => true;
    const matching = this.breaches.filter((stored) => {
      if (!matchesBreachQuery(this.#asUserBreach(stored), query)) return false;
      if (!admits(filterRecordOf(toSearchDocument(stored.breach, this.details.get(stored.breach.id))))) return false;
      if (query.domainContains && !stored.breach.domain.toLowerCase().includes(query.domainContains.toLowerCase())) return false;
      if (query.email && !Object.keys(stored.accounts).some((e) => emailKey(e) === emailKey(query.email ?? ''))) return false;
      if (text && !matchesListText(stored.breach, text)) return false;
      return true;
    });
    // As the core: fabricated, spam-list and retired breaches only when asked for.
    return query.includeFlagged ? matching : matching.filter((stored) => !this.#flagged(stored.breach.id));
  }

  #overview() {
    const byClass = new Map<string, number>();
    const byEmail = new Map<string, number>();
    const byYear = new Map<number, number>();
    const shown = this.#underPolicy();
    for (const stored of shown) {
      const year = Number(stored.breach.breachDate.slice(0, 4));
      byYear.set(year, (byYear.get(year) ?? 0) + 1);
      for (const account of this.#detail(stored).accounts)
        for (const [name, cell] of Object.entries(account.cells))
          if (!cell.resolved) {
            byClass.set(name, (byClass.get(name) ?? 0) + 1);
            byEmail.set(account.email, (byEmail.get(account.email) ?? 0) + 1);
          }
    }
    return {
      breaches: shown.length,
      sensitiveBreaches: this.breaches.filter((stored) => stored.breach.isSensitive).length,
      ...(sensitivePolicyOf(this.settings).showSensitive ? { sensitiveShown: true } : {}),
      includesHibp: this.#creditsHibp(this.breaches.length),
      unresolvedByDataClass: [...byClass].map(([name, count]) => ({ name, count })),
      unresolvedByEmail: [...byEmail].map(([email, count]) => ({ email, count })),
      breachesByYear: [...byYear].map(([year, count]) => ({ year, count })).sort((a, b) => a.year - b.year),
    };
  }
}

function breach(id: string, domain: string, breachDate: string, dataClasses: string[], isSensitive = false): Breach {
  return { id, domain, breachDate, addedDate: `${breachDate}T12:00:00Z`, modifiedDate: `${breachDate}T12:00:00Z`, dataClasses: [...dataClasses].sort(), isSensitive };
}

/** A few breaches with every state the UI draws: resolved, partial, sensitive, new. */
export function sampleBreaches(): FakeBreach[] {
  return [
    {
      breach: breach('Adobe', 'adobe.com', '2013-10-04', ['Email addresses', 'Password hints', 'Passwords', 'Usernames']),
      accounts: { [ALICE]: { 'Email addresses': { resolvedAt: '2024-05-01T12:30:00Z' } }, [BOB]: {} },
    },
    {
      breach: breach('LinkedIn', 'linkedin.com', '2012-05-05', ['Email addresses', 'Passwords']),
      accounts: { [ALICE]: { 'Email addresses': { resolvedAt: '2024-01-02T08:00:00Z' }, Passwords: { resolvedAt: '2024-01-02T08:00:00Z' } } },
    },
    {
      breach: breach('Canva', 'canva.com', '2019-05-24', ['Email addresses', 'Geographic locations', 'Names', 'Passwords', 'Usernames']),
      accounts: { [BOB]: {} },
      isNew: true,
    },
    {
      breach: breach('AdultSite', 'adultsite.example', '2016-10-16', ['Email addresses', 'Passwords', 'Sexual preferences'], true),
      accounts: { [ALICE]: {} },
    },
  ];
}

/** Many breaches for the virtualized list. */
export function manyBreaches(count: number): FakeBreach[] {
  const classes = ['Email addresses', 'Passwords', 'Usernames', 'Names', 'Phone numbers', 'IP addresses', 'Dates of birth'];
  return Array.from({ length: count }, (_, i) => {
    const year = 2008 + (i % 17);
    const month = String((i % 12) + 1).padStart(2, '0');
    const picked = classes.filter((_, j) => (i + j) % 3 !== 0);
    return {
      breach: breach(`Breach${String(i).padStart(5, '0')}`, `site${i}.example`, `${year}-${month}-01`, picked, i % 50 === 0),
      accounts: { [ALICE]: i % 4 === 0 ? { [picked[0] as string]: { resolvedAt: '2025-01-01T00:00:00Z' } } : {} },
    };
  });
}

// ── the breach graph (CONTRACT.md, docs/graph.md), small and slow on purpose ─────────────

function fakeDataClassNode(name: string): string {
  return `dataClass/${name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')}`;
}

interface FakeTriple {
  subject: string;
  predicate: string;
  objectId?: string;
  value?: string;
}

/** Values of one page: keyed by node, then arc, in answer order. */
type FakeValue = { node: string; arc: string; item: NodeItem };

/** Merges consecutive pages; each has every queried node, so this is concatenation. */
export function mergeFakePages(a: NodeResponse, b: NodeResponse): NodeResponse {
  const data: NodeResponse['data'] = {};
  for (const node of new Set([...Object.keys(a.data), ...Object.keys(b.data)])) {
    const x = a.data[node] ?? {};
    const y = b.data[node] ?? {};
    const merged: NodeResponse['data'][string] = {};
    if (x.properties || y.properties) merged.properties = [...(x.properties ?? []), ...(y.properties ?? [])];
    if (x.arcs || y.arcs) {
      merged.arcs = {};
      for (const label of new Set([...Object.keys(x.arcs ?? {}), ...Object.keys(y.arcs ?? {})])) merged.arcs[label] = { nodes: [...(x.arcs?.[label]?.nodes ?? []), ...(y.arcs?.[label]?.nodes ?? [])] };
    }
    data[node] = merged;
  }
  return b.nextToken !== undefined ? { data, nextToken: b.nextToken } : { data };
}

export class FakeGraph {
  readonly triples: FakeTriple[] = [];

  constructor(breaches: readonly Breach[]) {
    const add = (subject: string, predicate: string, object: { id: string } | { value: string }) =>
      this.triples.push({ subject, predicate, ...('id' in object ? { objectId: object.id } : { value: object.value }) });
    for (const type of ['Breach', 'Domain', 'DataClass']) add(type, 'typeOf', { id: 'Class' });
    const domains = new Map<string, string>();
    const classes = new Map<string, string>();
    for (const breach of [...breaches].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
      add(breach.id, 'typeOf', { id: 'Breach' });
      add(breach.id, 'name', { value: breach.id });
      if (breach.domain.trim()) {
        const node = `domain/${breach.domain.trim().toLowerCase()}`;
        if (!domains.has(node)) domains.set(node, breach.domain.trim().toLowerCase());
        add(breach.id, 'domain', { id: node });
      }
      for (const name of breach.dataClasses) {
        const node = fakeDataClassNode(name);
        if (!classes.has(node)) classes.set(node, name);
        add(breach.id, 'dataClass', { id: node });
      }
      add(breach.id, 'breachDate', { value: breach.breachDate });
      add(breach.id, 'addedDate', { value: breach.addedDate });
      add(breach.id, 'modifiedDate', { value: breach.modifiedDate });
      add(breach.id, 'isSensitive', { value: String(breach.isSensitive) });
    }
    for (const [node, name] of [...domains, ...classes]) {
      add(node, 'typeOf', { id: node.startsWith('domain/') ? 'Domain' : 'DataClass' });
      add(node, 'name', { value: name });
    }
  }

  #name(id: string): string | undefined {
    return this.triples.find((t) => t.subject === id && t.predicate === 'name')?.value;
  }

  #types(id: string): string[] {
    return this.triples.filter((t) => t.subject === id && t.predicate === 'typeOf' && t.objectId).map((t) => t.objectId!);
  }

  #nodeItem(id: string, provenance: boolean): NodeItem {
    const item: NodeItem = {};
    const name = this.#name(id);
    if (name !== undefined) item.name = name;
    const types = this.#types(id);
    if (types.length > 0) item.types = types;
    item.dcid = id;
    if (provenance) item.provenanceId = 'breach-catalog';
    return item;
  }

  /** Triples of one node in one direction and label: literals by value, then nodes by id. */
  #values(node: string, direction: Direction, label: string, filter: readonly FilterTerm[]): NodeItem[] {
    const matches = (id: string) => filter.every((term) => this.triples.some((t) => t.subject === id && t.predicate === term.key && (t.objectId === term.value || t.value === term.value)));
    const found = this.triples.filter((t) => t.predicate === label && (direction === 'out' ? t.subject === node : t.objectId === node));
    const literals =
      direction === 'out' && filter.length === 0
        ? found
            .filter((t) => t.value !== undefined)
            .map((t) => t.value!)
            .sort()
        : [];
    const ids = [...new Set(found.map((t) => (direction === 'out' ? t.objectId : t.subject)).filter((id): id is string => id !== undefined))].filter(matches).sort();
    return [...literals.map((value) => ({ provenanceId: 'breach-catalog', value })), ...ids.map((id) => this.#nodeItem(id, true))];
  }

  #reach(node: string, direction: Direction, label: string, filter: readonly FilterTerm[]): NodeItem[] {
    const visited = new Set([node]);
    const reached: string[] = [];
    let frontier = [node];
    for (let hop = 0; hop < 10 && frontier.length > 0; hop++) {
      const next: string[] = [];
      for (const id of frontier)
        for (const item of this.#values(id, direction, label, []))
          if (item.dcid !== undefined && !visited.has(item.dcid)) {
            visited.add(item.dcid);
            next.push(item.dcid);
            reached.push(item.dcid);
          }
      frontier = next;
    }
    const matches = (id: string) => filter.every((term) => this.triples.some((t) => t.subject === id && t.predicate === term.key && (t.objectId === term.value || t.value === term.value)));
    return reached
      .filter(matches)
      .sort()
      .map((id) => this.#nodeItem(id, false));
  }

  #labels(node: string, direction: Direction): string[] {
    return [...new Set(this.triples.filter((t) => (direction === 'out' ? t.subject === node : t.objectId === node)).map((t) => t.predicate))].sort();
  }

  query(nodes: readonly string[], property: string, nextToken: string | undefined, pageSize: number): NodeResponse {
    const parsed = parseExpression(property);
    if (!parsed.ok) throw ipcError('invalid-arguments', parsed.error.message, [{ path: 'property', message: parsed.error.message }]);
    if (parsed.ast.hops.length > 1)
      throw ipcError('invalid-arguments', `this service answers one arrow per expression; "${property}" has ${parsed.ast.hops.length} (query one hop at a time)`, [
        { path: 'property', message: 'one arrow per expression' },
      ]);
    const hop = parsed.ast.hops[0] as Hop;
    const queried = [...new Set(nodes)].sort();
    const data: NodeResponse['data'] = Object.fromEntries(queried.map((node) => [node, {}]));
    // Label queries are never paged.
    if (hop.body.kind === 'labels') {
      for (const node of queried) {
        const labels = this.#labels(node, hop.direction);
        if (labels.length > 0) data[node] = { properties: labels };
      }
      return { data };
    }
    const body = hop.body;
    const values: FakeValue[] = [];
    for (const node of queried) {
      const arcs =
        body.kind === 'all'
          ? this.#labels(node, hop.direction).map((label) => ({ key: label, label, repeat: false, filter: [] as FilterTerm[] }))
          : body.kind === 'list'
            ? [...new Set(body.properties)].sort().map((label) => ({ key: label, label, repeat: false, filter: [] as FilterTerm[] }))
            : [{ key: body.repeat ? `${body.property}+` : body.property, label: body.property, repeat: body.repeat, filter: body.filter }];
      for (const arc of arcs) {
        const items = arc.repeat ? this.#reach(node, hop.direction, arc.label, arc.filter) : this.#values(node, hop.direction, arc.label, arc.filter);
        for (const item of items) values.push({ node, arc: arc.key, item });
      }
    }
    const digest = JSON.stringify([queried, printExpression(parsed.ast)]);
    let offset = 0;
    if (nextToken !== undefined) {
      try {
        const token = JSON.parse(atob(nextToken)) as { offset: number; digest: string };
        if (token.digest !== digest || !Number.isInteger(token.offset) || token.offset <= 0) throw new Error('foreign');
        offset = token.offset;
      } catch {
        throw ipcError('invalid-arguments', 'nextToken does not fit this query; start the query again', [{ path: 'nextToken', message: 'does not fit this query' }]);
      }
    }
    const page = values.slice(offset, offset + pageSize);
    for (const { node, arc, item } of page) {
      const entry = (data[node] ??= {});
      const arcs = (entry.arcs ??= {});
      (arcs[arc] ??= { nodes: [] }).nodes.push(item);
    }
    const end = offset + page.length;
    return end < values.length ? { data, nextToken: btoa(JSON.stringify({ offset: end, digest })) } : { data };
  }
}
