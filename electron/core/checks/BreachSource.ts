import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SETTINGS_FILE } from '../settings/SettingsStore.ts';
import { BreachSourceChoice, CoreError, HibpUrl, type BreachSourceView, type Settings, type SettingsChange } from '../../../shared/ipc/index.ts';
import type { SecretStore } from '../auth/secrets/SecretStore.ts';
import { clearDemoExposures, storedSource } from '../db/breachDataQueries.ts';
import type { LocalServiceControl, LocalServiceLaunch } from '../host.ts';
import type { CurrentSession } from '../session/CurrentSession.ts';
import { HIBP_API_KEY_SECRET, keyHint, readHibpApiKey } from './hibpKey.ts';

/**
 * The local service's launch for a choice. No choice yet is the quick start (demo data,
 * labelled); `hibp` without a kept key (a session-only store, a forgotten key) is `none`, never
 * demo: the person asked for real data.
 */
export async function launchFor(choice: BreachSourceChoice | undefined, secrets: Pick<SecretStore, 'get'>, hibpUrl?: string): Promise<LocalServiceLaunch | undefined> {
  if (choice === 'service') return undefined;
  if (choice !== 'hibp') return { source: 'demo' };
  const apiKey = await readHibpApiKey(secrets);
  return apiKey ? { source: 'hibp', apiKey, ...(hibpUrl ? { hibpUrl } : {}) } : { source: 'none' };
}

/** The saved choice in `<dataDir>/settings.json` (read by `npm start` before the app starts); undefined when absent or unreadable. */
export function savedChoice(dataDir: string): BreachSourceChoice | undefined {
  const parsed = BreachSourceChoice.safeParse(savedSetting(dataDir, 'breachSource'));
  return parsed.success ? parsed.data : undefined;
}

/** The Have I Been Pwned address saved beside the choice (`npm start` starts the local service with it); undefined when none is valid. */
export function savedHibpUrl(dataDir: string): string | undefined {
  const parsed = HibpUrl.safeParse(savedSetting(dataDir, 'hibpUrl'));
  return parsed.success ? parsed.data : undefined;
}

function savedSetting(dataDir: string, key: string): unknown {
  try {
    const raw = JSON.parse(readFileSync(path.join(dataDir, SETTINGS_FILE), 'utf8')) as Record<string, unknown>;
    return Object.hasOwn(raw, key) ? raw[key] : undefined;
  } catch {
    return undefined;
  }
}

export interface BreachSourceOptions {
  settings: { get(): Settings };
  /** The settings channel's own handler: the same checks (sign out before switching service) and effects. */
  applySettings(change: SettingsChange): Settings | Promise<Settings>;
  secrets: Pick<SecretStore, 'get' | 'set' | 'delete' | 'persistent'>;
  sessions: Pick<CurrentSession, 'get'>;
  localService: LocalServiceControl | undefined;
  /** The app's default service (the local reference service `npm start` runs, on whichever port): where `hibp` and `demo` sign in. */
  localEndpoints: { serviceUrl: string; issuer: string };
  /** Local data changed (demo exposures removed): the views re-query, the checks are re-published. */
  onDataCleared(): void;
  now?: () => Date;
}

/**
 * The person's choice of breach data, and the Have I Been Pwned key that goes with `hibp`:
 * kept in the secret store (the OS keychain, like the sign-in tokens), handed to the local
 * service through its environment, never returned to a UI (only its last four characters).
 * Moving away from demo data removes the invented exposures from this machine at once and says
 * how many; the sync that follows brings what the real source knows.
 */
export class BreachSource {
  readonly #options: BreachSourceOptions;

  constructor(options: BreachSourceOptions) {
    this.#options = options;
  }

  async view(extra: Pick<BreachSourceView, 'demoCleared' | 'problem'> = {}): Promise<BreachSourceView> {
    const key = await readHibpApiKey(this.#options.secrets);
    return {
      choice: this.#options.settings.get().breachSource ?? null,
      hasHibpKey: key !== undefined,
      keyHint: key ? keyHint(key) : null,
      keyRemembered: this.#options.secrets.persistent,
      localService: this.#options.localService ? 'restarted' : 'next-start',
      ...(this.#options.settings.get().hibpUrl ? { hibpUrl: this.#options.settings.get().hibpUrl } : {}),
      ...extra,
    };
  }

  /** The launch the local service needs for the saved choice; undefined when the person uses another service. */
  async launch(choice: BreachSourceChoice | undefined = this.#options.settings.get().breachSource): Promise<LocalServiceLaunch | undefined> {
    return launchFor(choice, this.#options.secrets, this.#options.settings.get().hibpUrl);
  }

  async set(input: { choice: BreachSourceChoice; apiKey?: string | undefined; forgetKey?: boolean | undefined; hibpUrl?: string | null | undefined }): Promise<BreachSourceView> {
    const { secrets } = this.#options;
    if (input.choice === 'hibp' && !input.apiKey && !(await readHibpApiKey(secrets))) {
      throw new CoreError('invalid-arguments', 'Paste your Have I Been Pwned API key to check your addresses with it.', [{ path: 'apiKey', message: 'Paste your API key' }]);
    }
    // The local service's choices use the local service; signing out first is the settings channel's rule.
    const local = input.choice === 'service' ? {} : { ...this.#options.localEndpoints };
    await this.#options.applySettings({ ...local, breachSource: input.choice, ...(input.hibpUrl !== undefined ? { hibpUrl: input.hibpUrl } : {}) });
    if (input.apiKey) await secrets.set(HIBP_API_KEY_SECRET, input.apiKey);
    if (input.forgetKey) await secrets.delete(HIBP_API_KEY_SECRET);

    const demoCleared = input.choice === 'demo' ? 0 : this.#clearDemo();
    let problem: string | undefined;
    const launch = await this.launch(input.choice);
    if (launch && this.#options.localService) {
      try {
        await this.#options.localService.apply(launch);
      } catch (error) {
        problem = `The local service could not be restarted: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    void this.#options.sessions.get()?.sync.scheduler.syncNow('manual');
    return this.view({ ...(demoCleared > 0 || input.choice !== 'demo' ? { demoCleared } : {}), ...(problem ? { problem } : {}) });
  }

  /** Removes invented exposures of the open account now (the person asked for real data). */
  #clearDemo(): number {
    const session = this.#options.sessions.get();
    if (!session || storedSource(session.db) !== 'demo') return 0;
    const now = (this.#options.now ?? (() => new Date()))().toISOString();
    const cleared = session.db.transaction(() => clearDemoExposures(session.db, now)).immediate();
    this.#options.onDataCleared();
    return cleared;
  }
}
