import type { BreachDetails } from '../../../shared/catalog/index.ts';
import { mergePreferences, Preferences } from '../../../shared/catalog/index.ts';
import { CoreError, type FeedAuth, type FeedStatus, type Settings, type SettingsChange } from '../../../shared/ipc/index.ts';
import type { IdTokenSource } from '../auth/CurrentAuth.ts';
import type { SecretKey, SecretStore } from '../auth/secrets/SecretStore.ts';
import type { DetailsStore } from './DetailsStore.ts';
import type { LocalPreferences } from './LocalPreferences.ts';
import type { LogoCache } from './LogoCache.ts';
import { RealtimeDatabaseClient, type FeedCredential } from './RealtimeDatabaseClient.ts';
import { ServiceAccountKey } from './serviceAccountToken.ts';
import { syncCatalogDetails, type DetailsSyncReport } from './syncCatalogDetails.ts';

export const SECRET_DISCOURAGED = 'Database secrets are a legacy credential: they never expire and anyone holding one has full access. Prefer a service account or your sign-in.';
const SECRET_ISSUER = 'breach-monitor:details-feed';
/** Conditional writes of a pending preferences change before giving up until the next try (each loses only to another device's write). */
const WRITE_BACK_ATTEMPTS = 5;

export interface DetailsFeedDeps {
  settings: { get(): Settings; update(change: SettingsChange): Settings };
  secrets: SecretStore;
  identity: IdTokenSource;
  store: DetailsStore;
  fetch?: typeof fetch;
  logos?: LogoCache;
  /** This machine's copy of the shared preferences (offline use, write-back); without it, always the database. */
  localPreferences?: LocalPreferences;
}

/** The feed's URL when the settings name none: the account server's origin + `/rtdb`. */
export function defaultFeedUrl(serviceUrl: string): string {
  return `${new URL(serviceUrl).origin}/rtdb`;
}

/**
 * The breach details feed: which database, which credential (kept in the secret store, per
 * feed URL), the local copy, and the person's shared preferences. One sync at a time.
 */
export class DetailsFeed {
  readonly #deps: DetailsFeedDeps;
  #client: { key: string; client: RealtimeDatabaseClient } | undefined;
  #syncing: Promise<DetailsSyncReport> | undefined;
  #last: FeedStatus['lastSync'];
  #lastError: string | undefined;
  /** The service's `breach-catalog-version` this copy of its own feed was last read at (this run of the app only). */
  #readAt: { url: string; version: string } | undefined;

  constructor(deps: DetailsFeedDeps) {
    this.#deps = deps;
  }

  get url(): string {
    return this.#deps.settings.get().feedUrl ?? this.defaultUrl;
  }

  get defaultUrl(): string {
    return defaultFeedUrl(this.#deps.settings.get().serviceUrl);
  }

  get auth(): FeedAuth {
    return this.#deps.settings.get().feedAuth ?? 'none';
  }

  /** Details of these breaches from the local copy (no network). */
  details(ids: readonly string[]): Map<string, BreachDetails> {
    return this.#deps.store.getMany(ids);
  }

  /** The breach's logo from the cache (fetched once), or undefined: the UI draws a fallback. */
  async logo(id: string): Promise<string | undefined> {
    const details = this.#deps.store.get(id);
    if (!details || !this.#deps.logos) return undefined;
    return this.#deps.logos.dataUrl(details.logoPath, this.url);
  }

  async status(): Promise<FeedStatus> {
    const url = this.url;
    const keyText = await this.#deps.secrets.get(this.#secretKey(url, 'service-account'));
    const key = keyText ? ServiceAccountKey.safeParse(JSON.parse(keyText)) : undefined;
    const hasSecret = (await this.#deps.secrets.get(this.#secretKey(url, 'secret'))) !== undefined;
    const state = this.#deps.store.state();
    const lastSync = this.#last ?? (state && state.url === url ? { at: state.syncedAt, status: 'unchanged' as const, count: state.count, skipped: [] } : undefined);
    return {
      url,
      defaultUrl: this.defaultUrl,
      auth: this.auth,
      hasServiceAccountKey: key?.success === true,
      ...(key?.success ? { serviceAccountEmail: key.data.client_email } : {}),
      hasSecret,
      ...(this.auth === 'secret' ? { discouraged: SECRET_DISCOURAGED } : {}),
      ...(lastSync ? { lastSync } : {}),
      ...(this.#lastError ? { lastError: this.#lastError } : {}),
    };
  }

  /** Changes where and how; a key file is checked before it is kept. */
  async configure(change: {
    url?: string | null | undefined;
    auth?: FeedAuth | undefined;
    serviceAccountKey?: string | undefined;
    secret?: string | undefined;
    forget?: ('service-account' | 'secret')[] | undefined;
  }): Promise<FeedStatus> {
    const url = change.url === null ? this.defaultUrl : (change.url ?? this.url);
    if (change.serviceAccountKey !== undefined) {
      let json: unknown;
      try {
        json = JSON.parse(change.serviceAccountKey);
      } catch {
        throw new CoreError('invalid-arguments', 'The service-account key file is not JSON.');
      }
      const parsed = ServiceAccountKey.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new CoreError('invalid-arguments', `The service-account key file is not usable: ${issue.path.join('.') || 'file'} ${issue.message}.`);
      }
      await this.#deps.secrets.set(this.#secretKey(url, 'service-account'), JSON.stringify(parsed.data));
    }
    if (change.secret !== undefined) await this.#deps.secrets.set(this.#secretKey(url, 'secret'), change.secret);
    for (const kind of change.forget ?? []) await this.#deps.secrets.delete(this.#secretKey(url, kind));
    const auth = change.auth ?? this.auth;
    if (auth === 'service-account' && !(await this.#deps.secrets.get(this.#secretKey(url, 'service-account')))) throw new CoreError('invalid-arguments', 'Choose a service-account key file first.');
    if (auth === 'secret' && !(await this.#deps.secrets.get(this.#secretKey(url, 'secret')))) throw new CoreError('invalid-arguments', 'Enter the database secret first.');
    this.#deps.settings.update({ ...(change.url !== undefined ? { feedUrl: change.url } : {}), feedAuth: auth });
    this.#client = undefined;
    this.#last = undefined;
    this.#lastError = undefined;
    this.#readAt = undefined;
    return this.status();
  }

  /** Syncs the catalog details now (joins a sync already running). */
  sync(): Promise<DetailsSyncReport> {
    this.#syncing ??= this.#sync().finally(() => (this.#syncing = undefined));
    return this.#syncing;
  }

  /**
   * The sync after a breach sync: none when the service named the version of its own feed
   * (`catalogVersion`, its `breach-catalog-version`) and this copy was read at that version
   * (undefined then); otherwise {@link sync}. So an idle sync reads nothing here. A feed at a URL
   * the person set (the service's version says nothing about it), a service that names no
   * version, and the first sync of this run of the app read the feed as before (a conditional
   * GET). The version is recorded only for a read this call started: one already on its way may
   * have been sent before the feed reached that version.
   */
  async syncUnlessRead(catalogVersion: string | undefined): Promise<DetailsSyncReport | undefined> {
    const url = this.url;
    const own = catalogVersion !== undefined && url === this.defaultUrl;
    if (own && this.#readAt?.url === url && this.#readAt.version === catalogVersion) return undefined;
    const started = this.#syncing === undefined;
    const report = await this.sync();
    if (own && started && this.url === url) this.#readAt = { url, version: catalogVersion };
    return report;
  }

  /**
   * The person's shared preferences. With a local copy: a change still waiting is written back
   * first (this machine's choice is the newer one); else the database's answer replaces the copy;
   * when the database cannot be reached, the copy answers. Without any copy an unreachable
   * database is an error: defaults written back later would overwrite the person's real choices.
   */
  async preferences(): Promise<Preferences> {
    const { client, path, subject } = await this.#personal();
    const local = this.#deps.localPreferences;
    const copy = local?.read(subject);
    if (copy?.pending) {
      await this.#writeBack(subject, client, path);
      return local!.read(subject)!.preferences;
    }
    try {
      const answer = await client.get(path);
      const value = answer.status === 'ok' ? answer.value : null;
      const parsed = Preferences.safeParse(value ?? {});
      // Preferences another version wrote in a shape this one does not know start over from defaults.
      const preferences = parsed.success ? parsed.data : Preferences.parse({});
      local?.write(subject, { preferences, pending: false, base: preferences });
      return preferences;
    } catch (error) {
      if (copy && !(error instanceof CoreError && error.code === 'sign-in-required')) return copy.preferences;
      throw error;
    }
  }

  /** Keeps the change on this machine at once, then writes it to the database when it answers. */
  async setPreferences(preferences: Preferences): Promise<Preferences> {
    const { client, path, subject } = await this.#personal();
    const local = this.#deps.localPreferences;
    if (!local) {
      await client.put(path, preferences);
      return preferences;
    }
    // The change is made on top of what the database last held as far as this machine knows.
    const copy = local.read(subject);
    const base = copy?.pending ? copy.base : copy?.preferences;
    local.write(subject, { preferences, pending: true, ...(base ? { base } : {}) });
    await this.#writeBack(subject, client, path);
    return local.read(subject)!.preferences;
  }

  /** Writes a change made offline back to the database (after a sync, when the network is back). */
  async writeBackPreferences(): Promise<'written' | 'nothing-pending' | 'still-offline'> {
    const subject = this.#deps.identity.subject();
    const copy = subject ? this.#deps.localPreferences?.read(subject) : undefined;
    if (!subject || !copy?.pending) return 'nothing-pending';
    const { client, path } = await this.#personal();
    return (await this.#writeBack(subject, client, path)) ? 'written' : 'still-offline';
  }

  /** The preferences this machine last knew for the signed-in person, without the network. */
  knownPreferences(): Preferences | undefined {
    const subject = this.#deps.identity.subject();
    return subject ? this.#deps.localPreferences?.read(subject)?.preferences : undefined;
  }

  /**
   * Writes this machine's pending change: merged with what the database holds now (another
   * device may have changed other preferences meanwhile), written only if the database still
   * holds that (`if-match`), read again and merged again when another write came first.
   */
  /** The sign-in's ID token, renewed once when the database refuses it. */
  #idTokenCredential(): FeedCredential {
    return { kind: 'id-token', getIdToken: () => this.#deps.identity.getIdToken(), idTokenAfterUnauthorized: (rejected) => this.#deps.identity.idTokenAfterUnauthorized(rejected) };
  }

  async #writeBack(subject: string, client: RealtimeDatabaseClient, path: string): Promise<boolean> {
    const local = this.#deps.localPreferences!;
    const copy = local.read(subject);
    if (!copy?.pending) return true;
    let merged: Preferences;
    try {
      let read = await client.get(path);
      for (let attempt = 1; ; attempt++) {
        const remote = read.status === 'ok' ? Preferences.safeParse(read.value ?? {}) : undefined;
        // Without a base (a copy from before bases were kept) or a remote this version can read, this machine's choice stands whole.
        merged = copy.base && remote?.success ? mergePreferences(copy.base, copy.preferences, remote.data) : copy.preferences;
        if (read.etag === undefined) {
          await client.put(path, merged);
          break;
        }
        const written = await client.putIfMatch(path, merged, read.etag);
        if (written.status === 'ok') break;
        if (attempt >= WRITE_BACK_ATTEMPTS) return false;
        read = { status: 'ok', value: written.value, etag: written.etag };
      }
    } catch {
      // Kept as pending: the next read, sync or write-back tries again.
      return false;
    }
    // A change made while this one was on the wire is kept pending, now on top of what was written.
    const now = local.read(subject);
    if (now && JSON.stringify(now.preferences) === JSON.stringify(copy.preferences)) local.write(subject, { preferences: merged, pending: false, base: merged });
    else if (now?.pending) local.write(subject, { preferences: mergePreferences(copy.preferences, now.preferences, merged), pending: true, base: merged });
    return true;
  }

  async #sync(): Promise<DetailsSyncReport> {
    try {
      const report = await syncCatalogDetails(await this.#catalogClient(), this.#deps.store);
      this.#last = { at: new Date().toISOString(), ...report };
      this.#lastError = undefined;
      return report;
    } catch (error) {
      this.#lastError = error instanceof Error ? error.message : String(error);
      throw error;
    }
  }

  async #catalogClient(): Promise<RealtimeDatabaseClient> {
    const url = this.url;
    const auth = this.auth;
    const cacheKey = `${url}\u0000${auth}`;
    if (this.#client?.key === cacheKey) return this.#client.client;
    const client = new RealtimeDatabaseClient({ url, credential: await this.#credential(url, auth), ...(this.#deps.fetch ? { fetch: this.#deps.fetch } : {}) });
    this.#client = { key: cacheKey, client };
    return client;
  }

  /** Preferences are the person's own: always their ID token, whatever the catalog uses. */
  async #personal(): Promise<{ client: RealtimeDatabaseClient; path: string; subject: string }> {
    const subject = this.#deps.identity.subject();
    if (!subject) throw new CoreError('sign-in-required', 'Sign in to use preferences shared between your devices.');
    const client = new RealtimeDatabaseClient({
      url: this.url,
      credential: this.#idTokenCredential(),
      ...(this.#deps.fetch ? { fetch: this.#deps.fetch } : {}),
    });
    return { client, path: `users/${encodeURIComponent(subject)}/preferences`, subject };
  }

  async #credential(url: string, auth: FeedAuth): Promise<FeedCredential> {
    switch (auth) {
      case 'none':
        return { kind: 'none' };
      case 'id-token':
        return this.#idTokenCredential();
      case 'service-account': {
        const text = await this.#deps.secrets.get(this.#secretKey(url, 'service-account'));
        if (!text) throw new CoreError('invalid-arguments', 'No service-account key file is stored for this feed.');
        return { kind: 'service-account', key: ServiceAccountKey.parse(JSON.parse(text)) };
      }
      case 'secret': {
        const secret = await this.#deps.secrets.get(this.#secretKey(url, 'secret'));
        if (!secret) throw new CoreError('invalid-arguments', 'No database secret is stored for this feed.');
        return { kind: 'secret', secret };
      }
    }
  }

  #secretKey(url: string, kind: 'service-account' | 'secret'): SecretKey {
    return { issuer: SECRET_ISSUER, subject: `${kind}@${url}` };
  }
}
