import { HIDE_SENSITIVE, searchFilterUnder, type SensitivePolicy } from '../../../shared/api/index.ts';
import { CoreError, type EventPayload } from '../../../shared/ipc/index.ts';
import {
  answerSentence,
  BREACH_FILTER_FIELDS,
  itemKey,
  MAX_SET_VALUES,
  parseMetadataFilter,
  personKeys,
  questionFilter,
  understandQuery,
  type MetadataFilter,
  type SearchRemoteInstance,
} from '../../../shared/search/index.ts';
import type { SecretStore } from '../auth/secrets/SecretStore.ts';
import { listBreaches } from '../db/breachQueries.ts';
import type { HandlerSlice } from './combineHandlers.ts';
import type { AccountSession } from '../session/AccountSession.ts';
import type { CurrentSession } from '../session/CurrentSession.ts';
import type { SettingsStore } from '../settings/SettingsStore.ts';
import { EmbeddedSearch } from '../search/EmbeddedSearch.ts';
import { accountStates, localSearchSource, type LocalDetails } from '../search/localDocuments.ts';
import { RemoteSearchClient } from '../search/RemoteSearchClient.ts';
import type { SearchEngine } from '../search/SearchEngine.ts';
import { DEFAULT_MAX_RESULTS, type SearchChunk } from '../../../shared/search/index.ts';

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
    'search-run': async ({ requestId, engine: engineName, query, filters, onlyMine, answer, maxResults, now }) => {
      let engine: SearchEngine;
      // Checked here for both engines, so a remote instance is never asked with a filter that cannot run.
      const parsed = filters === undefined ? undefined : parseMetadataFilter(filters, BREACH_FILTER_FIELDS, '/filters');
      // The one sensitive policy, on both engines: the filter as sent (and shown back) says so.
      const checked: MetadataFilter | undefined = searchFilterUnder(parsed, policy());
      let sent: MetadataFilter | undefined = checked;
      /** For a remote instance, which knows the catalog and not the person: the answer sentence is said here. */
      let sentenceOf: ((chunks: readonly SearchChunk[]) => string | undefined) | undefined;
      if (engineName === 'embedded') {
        // The local store holds only the breaches naming this person: "only mine" is already true.
        engine = embeddedFor(sessions.require());
      } else {
        const instance = settings.get().searchRemote;
        if (!instance) throw new CoreError('invalid-arguments', 'Add a remote search instance in Search settings first.');
        engine = remote(instance);
        const session = sessions.require();
        // The instance understands the question as the embedded engine does, all but the
        // person's own state ("breaches I haven't fixed"), which only this store knows: it is sent
        // as the keys of those breaches.
        const { parts } = understandQuery(query, { now });
        // The question's own filter goes too, in the fields every instance has, so an instance
        // that does not understand questions (another AI Search instance) still applies it; the
        // chips set by hand and the sensitive policy win where both say a field.
        sent = withKnownFields(questionFilter(parts), checked);
        const person = personKeys(parts, accountStates(session.db));
        if (person) sent = { ...sent, key: { $in: keysToSend(person.map(itemKey)) } };
        else if (onlyMine) sent = { ...sent, key: { $in: myBreachKeys(session) } };
        const page = maxResults ?? DEFAULT_MAX_RESULTS;
        sentenceOf = (chunks) =>
          answerSentence(
            parts,
            chunks.map((chunk) => chunk.item.metadata),
            chunks.length,
            chunks.length >= page,
          );
      }
      const outcome = await engine.run({ query, filters: sent, maxResults, answer, now }, (event) =>
        emit({ requestId, event: event.type === 'chunks' && sentenceOf ? withSentence(event, sentenceOf(event.chunks)) : event }),
      );
      const sentence = sentenceOf ? sentenceOf(outcome.chunks) : outcome.sentence;
      return {
        engine: engineName,
        searchQuery: outcome.searchQuery,
        ...(sent ? { filters: sent } : {}),
        chunks: outcome.chunks,
        ...(outcome.total !== undefined ? { total: outcome.total } : {}),
        ...(sentence !== undefined ? { sentence } : {}),
        ...(outcome.answer ? { answer: outcome.answer } : {}),
      };
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

/** The question's filter in the fields an instance's schema has (not the catalog's other flags), under the checked filter. */
function withKnownFields(question: MetadataFilter | undefined, checked: MetadataFilter | undefined): MetadataFilter | undefined {
  const fits = ([field, condition]: [string, unknown]) =>
    Object.hasOwn(BREACH_FILTER_FIELDS, field) && !(field === 'key' && typeof condition === 'object' && condition !== null && ((condition as { $in?: unknown[] }).$in?.length ?? 0) > MAX_SET_VALUES);
  const known = Object.fromEntries(Object.entries(question ?? {}).filter(fits));
  const merged = { ...known, ...checked };
  return Object.keys(merged).length > 0 ? merged : undefined;
}

function withSentence<T extends object>(event: T, sentence: string | undefined): T {
  return sentence === undefined ? event : { ...event, sentence };
}

/** Item keys for a `key: {$in}` filter: never empty (no breach is keyed "breaches/"), at most what a filter may hold. */
function keysToSend(keys: string[]): string[] {
  if (keys.length === 0) return ['breaches/'];
  if (keys.length > MAX_SET_VALUES)
    throw new CoreError('invalid-arguments', `This question names ${keys.length} of your breaches, more than the ${MAX_SET_VALUES} a remote instance can be sent. Use the embedded search.`);
  return keys;
}

function myBreachKeys(session: AccountSession): string[] {
  const keys = listBreaches(session.db).map((breach) => `breaches/${breach.id}`);
  if (keys.length === 0) return ['breaches/'];
  if (keys.length > MAX_SET_VALUES)
    throw new CoreError('invalid-arguments', `“Only breaches naming me” can name at most ${MAX_SET_VALUES} breaches to a remote instance; this account has ${keys.length}. Use the embedded search.`);
  return keys;
}
