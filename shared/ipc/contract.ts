import { z } from 'zod';
import { LocalBreachQuery } from '../api/localQuery.ts';
import { ResolveInput } from '../api/resolution.ts';
import { NodeRequest, NodeResponse } from '../graph/response.ts';
import { BREACH_FILTER_FIELDS, FilterError, MAX_QUERY_LENGTH, MAX_RESULTS_LIMIT, MetadataFilter, parseMetadataFilter, SearchChunk, SearchRemoteInstance } from '../search/index.ts';
import { Report } from '../report/report.ts';
import { ReportSummary } from '../report/summary.ts';
import { AuthStatus, BreachDetail, BreachList, Overview, Settings, SettingsChange, SyncStatus } from './views.ts';
import { Preferences } from '../catalog/preferences.ts';
import { FeedAuth, FeedStatus, FeedUrl } from './feed.ts';
import { PdfFileName } from './host.ts';
import { BreachSourceSet, BreachSourceView, ChecksView, PwnedPrefix, PwnedRange } from './checks.ts';
import { AddressCodeInput, AddressesView, AddressInput, AddressRemoval } from './addresses.ts';
import { DeleteExportInput, DeleteExportResult, LoginIdInput, LoginImportCancelInput, LoginImportInput, LoginImportResult, LoginsView } from './logins.ts';

const Empty = z.strictObject({});

/** Where the graph pane's queries go: the embedded engine over the local breaches, or a remote endpoint of the same interface. */
export const GraphEndpoint = z.enum(['embedded', 'remote']);

export const GraphQueryResult = z.object({
  response: NodeResponse,
  source: z.enum(['embedded', 'network', 'cache']),
  fetchedAt: z.string(),
  pages: z.int().nonnegative(),
  /** False when the page cap stopped early: `response.nextToken` loads more. */
  complete: z.boolean(),
  offlineReason: z.string().optional(),
});
export type GraphQueryResult = z.infer<typeof GraphQueryResult>;

/** A toggle's reply: the breach as it now shows, and the revision of the `data-changed` event the toggle caused. */
export const ResolutionResult = z.object({ detail: BreachDetail, revision: z.int().nonnegative() });
export type ResolutionResult = z.infer<typeof ResolutionResult>;

/** The remote endpoint as the UI may know it: never the key itself. */
export const GraphRemote = z.object({ url: z.url().optional(), hasKey: z.boolean() });
export type GraphRemote = z.infer<typeof GraphRemote>;

/**
 * The list's advanced filter: a new-format metadata filter, checked by the search interface's
 * filter engine against the same fields (one issue per problem, each naming its pointer under
 * `/metadataFilter`).
 */
export const ListMetadataFilter = z.unknown().transform((value, ctx): MetadataFilter => {
  try {
    return parseMetadataFilter(value, BREACH_FILTER_FIELDS);
  } catch (error) {
    if (!(error instanceof FilterError)) throw error;
    for (const issue of error.issues)
      ctx.addIssue({
        code: 'custom',
        message: issue.message,
        path: issue.pointer
          .split('/')
          .slice(1)
          .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~')),
      });
    return z.NEVER;
  }
});

/**
 * What the breaches list asks for: the local store's query (the service's filters plus local
 * search, sort, per-email view and a window), the same schema the store validates, plus the
 * advanced filter in the search interface's filter language, which the core applies with the
 * same filter engine the Search page and the service use.
 */
export const ListQuery = LocalBreachQuery.extend({ metadataFilter: ListMetadataFilter.optional() });
export type ListQuery = z.infer<typeof ListQuery>;

/** Where a search runs: the embedded engine over local data (offline), or the configured remote instance. */
export const SearchEngineName = z.enum(['embedded', 'remote']);

export const SearchRunInput = z.strictObject({
  /** Names the run in `search-event` pushes, so a UI shows only its own run's stream. */
  requestId: z.string().min(1).max(100),
  engine: SearchEngineName.default('embedded'),
  query: z.string().max(MAX_QUERY_LENGTH),
  /** The chips compiled to the new metadata filter format; checked by the filter engine, whose errors say where. */
  filters: z.record(z.string(), z.unknown()).optional(),
  /** "Only breaches naming me": adds `key: {$in: [...]}` of the account's breaches to the filter. */
  onlyMine: z.boolean().default(false),
  answer: z.boolean().default(false),
  maxResults: z.int().min(1).max(MAX_RESULTS_LIMIT).optional(),
  /** "Now" for relative dates in the question (the page's clock, so its chips and the answer agree). */
  now: z.int().optional(),
});

export const SearchRunResult = z.object({
  engine: SearchEngineName,
  searchQuery: z.string(),
  /** The filter as sent (with the "only mine" keys), for "show filter". */
  filters: MetadataFilter.optional(),
  chunks: z.array(SearchChunk),
  /** How many breaches match (the chunks may be fewer); absent when the engine cannot say. */
  total: z.int().min(0).optional(),
  /** The answer sentence of an aggregate question ("12 breaches exposed your phone numbers"), from the same breaches as the chunks. */
  sentence: z.string().optional(),
  answer: z.object({ text: z.string(), kind: z.enum(['extractive', 'generated']) }).optional(),
});
export type SearchRunResult = z.infer<typeof SearchRunResult>;

/** The remote instance as the UI may know it: never the token itself. */
export const SearchRemote = z.object({ instance: SearchRemoteInstance.optional(), hasToken: z.boolean() });
export type SearchRemote = z.infer<typeof SearchRemote>;

/**
 * Every channel a UI may invoke on the core: one zod schema for the arguments and one for the
 * result. The core validates arguments at its door; the preload allows only these names.
 */
export const channels = {
  'auth-status': { input: Empty, output: AuthStatus },
  'auth-sign-in': { input: Empty, output: AuthStatus },
  'auth-cancel': { input: Empty, output: Empty },
  'auth-sign-out': { input: z.strictObject({ deleteLocalData: z.boolean() }), output: AuthStatus },
  'breaches-list': { input: ListQuery, output: BreachList },
  'breach-get': { input: z.strictObject({ id: z.string().min(1) }), output: BreachDetail },
  /** The person read the catalog-change notice (`BreachList.catalogNotice`) up to change `upTo`. */
  'catalog-notice-dismiss': { input: z.strictObject({ upTo: z.int().min(1) }), output: Empty },
  'breaches-domains': { input: Empty, output: z.array(z.string()) },
  'breaches-data-classes': { input: Empty, output: z.array(z.string()) },
  /** The outbox's own schema: omitted emails or data classes mean all of the breach's. */
  'resolutions-set': { input: ResolveInput, output: ResolutionResult },
  'outbox-retry': { input: z.strictObject({ breachId: z.string().min(1).optional() }), output: Empty },
  'outbox-discard': { input: z.strictObject({ breachId: z.string().min(1).optional() }), output: Empty },
  'sync-now': { input: Empty, output: SyncStatus },
  'sync-status': { input: Empty, output: SyncStatus },
  'overview-get': { input: Empty, output: Overview },
  'graph-query': {
    input: NodeRequest.extend({ endpoint: GraphEndpoint.default('embedded'), maxPages: z.int().min(1).max(100).default(1) }),
    output: GraphQueryResult,
  },
  'graph-remote-get': { input: Empty, output: GraphRemote },
  'graph-remote-set': {
    input: z.strictObject({ url: z.url().refine((value) => /^https?:/.test(value), 'must be an http(s) address'), apiKey: z.string().min(1).max(512).optional() }),
    output: GraphRemote,
  },
  'search-run': { input: SearchRunInput, output: SearchRunResult },
  'search-remote-get': { input: Empty, output: SearchRemote },
  'search-remote-set': { input: SearchRemoteInstance.extend({ token: z.string().min(1).max(4096).optional() }), output: SearchRemote },
  /** Every breach × email × data class with its state: the guided fix, "what to do next" and the exports. */
  'report-get': { input: Empty, output: Report },
  /** The overview's "what to do next" and "fixed per week": the report summarized in the core, so a megabyte never crosses to the page for a few hundred bytes of answer. */
  'report-summary': { input: Empty, output: ReportSummary },
  /**
   * The printable report as a PDF file, through the desktop host's print-to-PDF and a save
   * dialog (`saved: false` when the person cancelled). Hosts without one (the browser host)
   * answer `unavailable`: their print dialog saves PDFs.
   */
  'report-save-pdf': { input: z.strictObject({ fileName: PdfFileName }), output: z.object({ saved: z.boolean(), file: z.string().optional() }) },
  /**
   * The guided fix's "done": marks the listed classes resolved (or not) for the listed emails of
   * each breach, as one outbox record (one transaction; sent like any other change, offline too).
   */
  'fix-apply': {
    input: z.strictObject({
      intents: z
        .array(z.strictObject({ breachId: z.string().min(1), emails: z.array(z.string().min(1)).min(1), dataClasses: z.array(z.string().min(1)).min(1) }))
        .min(1)
        .max(10_000),
      resolved: z.boolean().default(true),
    }),
    output: z.object({ changed: z.int().nonnegative() }),
  },
  'settings-get': { input: Empty, output: Settings },
  'settings-set': { input: SettingsChange, output: Settings },
  /** The breach details feed (a realtime database): where, how it authenticates, what it last did. */
  'feed-status': { input: Empty, output: FeedStatus },
  'feed-sync': { input: Empty, output: FeedStatus },
  'feed-configure': {
    input: z.strictObject({
      /** `null`: back to the default address (the account server's `/rtdb`). */
      url: FeedUrl.nullable().optional(),
      auth: FeedAuth.optional(),
      /** The text of a service-account key file (JSON); kept in the keychain, never returned. */
      serviceAccountKey: z.string().min(2).max(20_000).optional(),
      /** A legacy database secret; kept in the keychain, never returned. */
      secret: z.string().min(1).max(512).optional(),
      /** Forget stored credentials. */
      forget: z.array(z.enum(['service-account', 'secret'])).optional(),
    }),
    output: FeedStatus,
  },
  /** A breach's logo as a `data:` URL from the core's cache; none when it cannot be had (draw a fallback). */
  'breach-logo': { input: z.strictObject({ id: z.string().min(1) }), output: z.object({ dataUrl: z.string().startsWith('data:image/').optional() }) },
  /** Opens a link from a breach description in the system browser. */
  /** `openHere`: the host has no system browser of its own (the browser host): the page opens the link itself. */
  'open-link': { input: z.strictObject({ url: z.url().refine((value) => /^https?:/.test(value), 'must be an http(s) address') }), output: z.strictObject({ openHere: z.boolean().optional() }) },
  /** The person's preferences shared between their devices (`users/<uid>/preferences`, ID token). */
  'preferences-get': { input: Empty, output: Preferences },
  'preferences-set': { input: Preferences, output: Preferences },
  /** Where the exposures come from (`hibp`, `demo`, `none`) and which addresses are checked, pending or failed. */
  'checks-get': { input: Empty, output: ChecksView },
  /** The person's choice of breach data (their own Have I Been Pwned key, a service, demo) and whether a key is kept. */
  'breach-source-get': { input: Empty, output: BreachSourceView },
  /** Switches the choice; a key goes to the keychain and to the local service's environment, never back to the UI. */
  'breach-source-set': { input: BreachSourceSet, output: BreachSourceView },
  /**
   * Pwned Passwords' range API for one SHA-1 prefix. The UI hashes the password itself and sends
   * only these 5 characters; the schema admits nothing else, so no more of a password can reach the core.
   */
  'passwords-range': { input: z.strictObject({ prefix: PwnedPrefix }), output: PwnedRange },
  /** The person's addresses as last listed by the service; `refresh` asks it first (what it cannot reach is said in `problem`). */
  'addresses-get': { input: z.strictObject({ refresh: z.boolean().optional() }), output: AddressesView },
  /** Adds an address at the service (needs it: offline is refused in words); a code goes to it unless the service is the person's own. */
  'addresses-add': { input: AddressInput, output: AddressesView },
  /** What removing an address would take with it on this computer, for the confirmation. */
  'addresses-removal': { input: AddressInput, output: AddressRemoval },
  /** Removes an address at the service, then its exposures and resolutions here, in one transaction. */
  'addresses-remove': { input: AddressInput, output: AddressesView },
  /** The code the person received for an address. */
  'addresses-verify': { input: AddressCodeInput, output: AddressesView },
  /** Sends the code again. */
  'addresses-resend': { input: AddressInput, output: AddressesView },
  /** The logins imported from password-manager exports, their breached sites and password findings. */
  'logins-get': { input: Empty, output: LoginsView },
  /**
   * Reads an export from a path on this computer, matches its sites to the catalog, keeps per login
   * only the site, username, a keyed hash and the findings, then starts the Pwned Passwords check
   * in the background. Progress arrives as `logins-import-progress`; cancelling leaves nothing.
   */
  'logins-import': { input: LoginImportInput, output: LoginImportResult },
  'logins-import-cancel': { input: LoginImportCancelInput, output: Empty },
  /** Stops the background Pwned Passwords check; the passwords it held are dropped from memory. */
  'logins-check-cancel': { input: Empty, output: LoginsView },
  /** Marks a login's findings dealt with (or open again). */
  'logins-resolve': { input: LoginIdInput.extend({ resolved: z.boolean() }), output: LoginsView },
  /** Forgets every imported login on this computer. */
  'logins-forget': { input: Empty, output: LoginsView },
  /** Deletes the export file the person imported (offered, never forced: it holds every password in clear). */
  'logins-delete-export': { input: DeleteExportInput, output: DeleteExportResult },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export type Channels = typeof channels;
export type ChannelName = keyof Channels;
export type ChannelInput<C extends ChannelName> = z.input<Channels[C]['input']>;
export type ChannelArgs<C extends ChannelName> = z.output<Channels[C]['input']>;
export type ChannelResult<C extends ChannelName> = z.output<Channels[C]['output']>;

export const CHANNEL_NAMES = Object.keys(channels) as ChannelName[];

export function isChannelName(name: unknown): name is ChannelName {
  return typeof name === 'string' && Object.hasOwn(channels, name);
}
