import { HIDE_SENSITIVE, searchFilterUnder, type SensitivePolicy } from '../../../shared/api/index.ts';
import { CoreError, type EventPayload } from '../../../shared/ipc/index.ts';
import { BREACH_FILTER_FIELDS, MAX_SET_VALUES, parseMetadataFilter, type MetadataFilter, type SearchRemoteInstance } from '../../../shared/search/index.ts';
import type { SecretStore } from '../auth/secrets/SecretStore.ts';
import { listBreaches } from '../db/breachQueries.ts';
import type { HandlerSlice } from './combineHandlers.ts';
import type { AccountSession } from '../session/AccountSession.ts';
import type { CurrentSession } from '../session/CurrentSession.ts';
import type { SettingsStore } from '../settings/SettingsStore.ts';
import { EmbeddedSearch } from '../search/EmbeddedSearch.ts';
import { localSearchSource, type LocalDetails } from '../search/localDocuments.ts';
import { RemoteSearchClient } from '../search/RemoteSearchClient.ts';
import type { SearchEngine } from '../search/SearchEngine.ts';

export interface SearchHandlerDeps {
  sessions: CurrentSession;
  settings: SettingsStore;
  /** Where the remote instance's API token lives (the keychain in the app). */
  secrets: SecretStore;
  emit(payload: EventPayload<'search-event'>): void;
  /** The details feed's local copy: titles and descriptions to search. */
  details?: LocalDetails;
  fetch?: typeof fetch;
  /** The sensitive policy now: unless the person opted in, both engines leave sensitive breaches out. */
  policy?: () => SensitivePolicy;
}

/**
 * The Search page: runs on the embedded engine over the account's local breaches (offline) or
 * on the configured remote instance, pushing chunks first and then the answer as `search-event`.
 */
export function createSearchHandlers({ sessions, settings, secrets, emit, details, fetch: fetchImpl, policy = () => HIDE_SENSITIVE }: SearchHandlerDeps) {
  let embedded: { session: AccountSession; engine: EmbeddedSearch } | undefined;
  const remote = (instance: SearchRemoteInstance) => new RemoteSearchClient(instance, secrets, fetchImpl);

  function embeddedFor(session: AccountSession): EmbeddedSearch {
    if (embedded?.session !== session) {
      embedded?.engine.close();
      embedded = { session, engine: new EmbeddedSearch(localSearchSource(session.db, details)) };
    }
    return embedded.engine;
  }

  const view = async () => {
    const instance = settings.get().searchRemote;
    return instance ? { instance, hasToken: await remote(instance).hasToken() } : { hasToken: false };
  };

  const handlers = {
    // Filter and remote errors are translated at the door (toCoreError).
    'search-run': async ({ requestId, engine: engineName, query, filters, onlyMine, answer, maxResults }) => {
      let engine: SearchEngine;
      // Checked here for both engines, so a remote instance is never asked with a filter that cannot run.
      const parsed = filters === undefined ? undefined : parseMetadataFilter(filters, BREACH_FILTER_FIELDS, '/filters');
      // The one sensitive policy, on both engines: the filter as sent (and shown back) says so.
      const checked: MetadataFilter | undefined = searchFilterUnder(parsed, policy());
      let sent: MetadataFilter | undefined = checked;
      if (engineName === 'embedded') {
        // The local store holds only the breaches naming this person: "only mine" is already true.
        engine = embeddedFor(sessions.require());
      } else {
        const instance = settings.get().searchRemote;
        if (!instance) throw new CoreError('invalid-arguments', 'Add a remote search instance in Search settings first.');
        engine = remote(instance);
        if (onlyMine) sent = { ...checked, key: { $in: myBreachKeys(sessions.require()) } };
      }
      const outcome = await engine.run({ query, filters: sent, maxResults, answer }, (event) => emit({ requestId, event }));
      return { engine: engineName, searchQuery: outcome.searchQuery, ...(sent ? { filters: sent } : {}), chunks: outcome.chunks, ...(outcome.answer ? { answer: outcome.answer } : {}) };
    },
    'search-remote-get': () => view(),
    'search-remote-set': async ({ token, ...instance }) => {
      settings.update({ searchRemote: instance });
      if (token !== undefined) await remote(instance).setToken(token);
      return view();
    },
  } satisfies HandlerSlice;
  return Object.assign(handlers, {
    close() {
      embedded?.engine.close();
      embedded = undefined;
    },
    /** Whether an account's index is held in memory (built by a search, let go by `close`). */
    indexOpen(): boolean {
      return embedded !== undefined;
    },
  });
}

function myBreachKeys(session: AccountSession): string[] {
  const keys = listBreaches(session.db).map((breach) => `breaches/${breach.id}`);
  if (keys.length === 0) return ['breaches/'];
  if (keys.length > MAX_SET_VALUES)
    throw new CoreError('invalid-arguments', `“Only breaches naming me” can name at most ${MAX_SET_VALUES} breaches to a remote instance; this account has ${keys.length}. Use the embedded search.`);
  return keys;
}
