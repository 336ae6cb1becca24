// The logins feature as the core composes it (app.ts), over real parts: the account database in a
// temporary data folder, the catalog's details store beside it, the secret store the app falls
// back to without a keychain (EncryptedFileSecretStore, under a per-test key), the router with
// the channels' schemas, and the event bus the UI listens to. The secret store is the OS keychain
// (keytar, under a test service of its own) where the tests have one (test/support/keychain.ts:
// run through tools/with-keyring.sh), else the file the app falls back to without a keychain.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BreachDetails } from '../../../shared/catalog/index.ts';
import type { EventName, LoginImportProgress, LoginsView, SiteBreachNotice } from '../../../shared/ipc/index.ts';
import { randomBytes } from 'node:crypto';
import { EncryptedFileSecretStore } from '../../../electron/core/auth/secrets/EncryptedFileSecretStore.ts';
import { KEYCHAIN_SERVICE, KeytarSecretStore } from '../../../electron/core/auth/secrets/KeytarSecretStore.ts';
import type { SecretStore } from '../../../electron/core/auth/secrets/SecretStore.ts';
import { openAccountDatabase, type AccountDatabase } from '../../../electron/core/db/openAccountDatabase.ts';
import { EventBus } from '../../../electron/core/events/EventBus.ts';
import { DetailsStore } from '../../../electron/core/feed/DetailsStore.ts';
import { combineHandlers, type HandlerSlice } from '../../../electron/core/handlers/combineHandlers.ts';
import { createLoginHandlers } from '../../../electron/core/handlers/loginHandlers.ts';
import { Router } from '../../../electron/core/handlers/Router.ts';
import { MAX_EXPORT_BYTES, readLoginExport } from '../../../electron/core/logins/exports/readLoginExport.ts';
import { LOGIN_HASH_KEY } from '../../../electron/core/logins/LoginHashKey.ts';
import { Logins, type ReadExport } from '../../../electron/core/logins/Logins.ts';
import type { CheckPasswords } from '../../../electron/core/logins/PasswordCheck.ts';
import { AccountSecrets } from '../../../electron/core/session/AccountSecrets.ts';
import { CHANNEL_NAMES } from '../../../shared/ipc/index.ts';
import { RUN_KEYCHAIN_TESTS } from '../../support/keychain.ts';
import { testCipher } from '../auth/testCipher.ts';

/** The keychain service these tests' entries go under (never a person's "Breach Monitor" entries). */
export const TEST_KEYCHAIN_SERVICE = `${KEYCHAIN_SERVICE} logins test ${randomBytes(4).toString('hex')}`;

/** A catalog breach with every field the details feed has (invented: never a real breach's text). */
export function catalogBreach(title: string, domain: string, breachDate: string, addedDate = `${breachDate}T12:00:00Z`): BreachDetails {
  return {
    title,
    domain,
    breachDate,
    addedDate,
    modifiedDate: addedDate,
    pwnCount: 1000,
    description: `${title} was breached (invented for a test).`,
    logoPath: `https://logos.example/${domain}.png`,
    dataClasses: ['Email addresses', 'Passwords'],
    isVerified: true,
    isFabricated: false,
    isSensitive: false,
    isRetired: false,
    isSpamList: false,
    isMalware: false,
    isStealerLog: false,
  };
}

export interface LoginsHarness {
  dataDir: string;
  database: AccountDatabase;
  /** The secret store underneath the account's (`keychain` or `encrypted-file`). */
  store: SecretStore;
  details: DetailsStore;
  logins: Logins;
  router: Router;
  events: { event: EventName; payload: unknown }[];
  progress: LoginImportProgress[];
  notices: SiteBreachNotice[][];
  logLines: string[];
  /** Every answer the router sent, as the UI would receive it. */
  answers: unknown[];
  /** Writes an export into a folder outside the data folder; returns its path. */
  writeExport(name: string, text: string | Uint8Array): string;
  call<T>(channel: string, args?: unknown): Promise<T>;
  dispatch(channel: string, args?: unknown): Promise<{ ok: boolean; result?: unknown; error?: { code: string; message: string; issues?: { path: string; message: string }[] } }>;
  /** Signs the account out (the app's session closes); `open` brings it back. */
  signOut(): void;
  signIn(accountId?: string): void;
  /** A new run of the app over the same data folder and secret store: nothing in memory survives. */
  restart(): void;
  close(): Promise<void>;
}

const ALL_CHANNELS_BUT_LOGINS: HandlerSlice = Object.fromEntries(
  CHANNEL_NAMES.filter((name) => !name.startsWith('logins-')).map((name) => [
    name,
    () => {
      throw new Error(`${name} is not part of these tests`);
    },
  ]),
);

export async function startLoginsHarness(
  options: { catalog?: Record<string, BreachDetails>; read?: ReadExport; checkPasswords?: CheckPasswords; now?: () => Date; maxBytes?: number } = {},
): Promise<LoginsHarness> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bm-logins-data-'));
  const exportsDir = mkdtempSync(path.join(tmpdir(), 'bm-logins-exports-'));
  const databases = new Map<string, AccountDatabase>();
  const openDatabase = (accountId: string) => {
    let database = databases.get(accountId);
    if (!database) databases.set(accountId, (database = openAccountDatabase(path.join(dataDir, 'accounts', `${accountId}.db`))));
    return database;
  };
  let account: string | undefined = 'account-a';
  const database = openDatabase('account-a');
  const details = new DetailsStore(path.join(dataDir, 'catalog-details.db'));
  details.replace('http://127.0.0.1:9/rtdb', options.catalog ?? {}, '"e1"');
  const cipher = testCipher();
  const store: SecretStore = RUN_KEYCHAIN_TESTS ? await KeytarSecretStore.open({ service: TEST_KEYCHAIN_SERVICE }) : EncryptedFileSecretStore.open({ dir: path.join(dataDir, 'auth'), cipher });
  const secrets = new AccountSecrets(store, () => (account ? { accountId: account, issuer: 'https://issuer.test', subject: account } : undefined));
  const bus = new EventBus();
  const events: LoginsHarness['events'] = [];
  bus.subscribe((event, payload) => events.push({ event, payload }));
  const progress: LoginImportProgress[] = [];
  const notices: SiteBreachNotice[][] = [];
  const logLines: string[] = [];
  const build = () =>
    new Logins({
      open: () => (account ? { db: openDatabase(account).db, accountId: account } : undefined),
      secrets,
      catalog: () => details.siteBreaches(),
      reader: { read: options.read ?? readLoginExport, maxBytes: options.maxBytes ?? MAX_EXPORT_BYTES },
      checkPasswords: options.checkPasswords ?? (async () => new Map()),
      emit: (view: LoginsView) => bus.emit('logins-changed', view),
      progress: (value) => {
        progress.push(value);
        bus.emit('logins-import-progress', value);
      },
      notify: (breaches) => notices.push(breaches),
      warn: (message, fields) => logLines.push(`warn ${message} ${JSON.stringify(fields)}`),
      ...(options.now ? { now: options.now } : {}),
    });
  const serve = (logins: Logins) =>
    new Router(combineHandlers(ALL_CHANNELS_BUT_LOGINS, createLoginHandlers({ logins })), {
      validateResults: true,
      onInternalError: (channel, error) => logLines.push(`error channel ${channel} failed ${String(error)}`),
    });
  let logins = build();
  let router = serve(logins);
  const answers: unknown[] = [];
  let id = 0;
  const dispatch: LoginsHarness['dispatch'] = async (channel, args = {}) => {
    const response = await router.dispatch({ type: 'request', id: ++id, channel, args });
    answers.push(response);
    return response as never;
  };
  const harness: LoginsHarness = {
    dataDir,
    database,
    store,
    details,
    logins,
    router,
    events,
    progress,
    notices,
    logLines,
    answers,
    writeExport(name, text) {
      const file = path.join(exportsDir, name);
      writeFileSync(file, text);
      return file;
    },
    dispatch,
    async call<T>(channel: string, args: unknown = {}) {
      const response = await dispatch(channel, args);
      if (!response.ok) throw new Error(`${channel}: ${response.error!.code} ${response.error!.message}`);
      return response.result as T;
    },
    signOut() {
      account = undefined;
      logins.accountClosed();
    },
    restart() {
      logins.accountClosed();
      logins = harness.logins = build();
      router = harness.router = serve(logins);
    },
    signIn(accountId = 'account-a') {
      account = accountId;
      logins.publish();
    },
    async close() {
      await logins.checkSettled();
      if (store.kind === 'keychain') for (const id of ['account-a', 'account-b']) await store.delete(AccountSecrets.keyFor(LOGIN_HASH_KEY, { accountId: id }));
      for (const opened of databases.values()) opened.close();
      details.close();
      bus.dispose();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(exportsDir, { recursive: true, force: true });
    },
  };
  return harness;
}

export function sha1Hex(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('hex');
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
