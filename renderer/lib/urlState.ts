import type { ListQuery } from '../../shared/ipc/contract.ts';

/**
 * Where the person is, kept in the URL's fragment (`#/breaches/Adobe?domain=adobe.com`) so it
 * survives reload under both `app://bundle/` and the browser host's `/app/`, where a path-based
 * router would need the server's cooperation.
 */
export const SCREENS = ['overview', 'fix', 'breaches', 'logins', 'search', 'graph', 'reports', 'passwords', 'settings'] as const;
export type Screen = (typeof SCREENS)[number];

export const SORTS = ['breachDate', 'addedDate', 'name', 'unresolved'] as const;
export type Sort = (typeof SORTS)[number];

export interface Filters {
  domain?: string;
  email?: string;
  dataClasses: string[];
  unresolvedDataClasses: string[];
  includeSensitive: boolean;
  /** Show fabricated, spam-list and retired breaches. */
  includeFlagged?: boolean;
  text: string;
  sort: Sort;
  /**
   * The advanced filter: a new-format metadata filter as compact JSON (an object), applied by the
   * core with the search interface's filter engine; checked there, errors naming their pointer.
   */
  advanced?: string;
}

/** The graph pane's query (graph screen only): kept in the URL so a reload runs it again. */
export interface GraphRoute {
  nodes: string[];
  property: string;
  endpoint: 'embedded' | 'remote';
}

export interface Route {
  screen: Screen;
  /** The breach open in the detail pane (breaches screen only). */
  breachId?: string;
  filters: Filters;
  graph?: GraphRoute;
  /** The guided fix: one breach (`#/fix/<id>`) or all of them, and the group to start at (`?group=passwords`). */
  fix?: FixRoute;
}

export interface FixRoute {
  breachId?: string;
  group?: string;
}

/** What a graph URL without `property` asks for: everything the start nodes link to. */
export const DEFAULT_GRAPH_PROPERTY = '->*';

export const EMPTY_FILTERS: Filters = Object.freeze({ dataClasses: [], unresolvedDataClasses: [], includeSensitive: false, text: '', sort: 'breachDate' }) as Filters;

const MAX_TEXT = 200;

/** Lenient: a hand-edited or stale URL yields the nearest valid route, never an error. */
export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '');
  const question = raw.indexOf('?');
  const path = question === -1 ? raw : raw.slice(0, question);
  const params = new URLSearchParams(question === -1 ? '' : raw.slice(question + 1));
  const [first, ...rest] = path.split('/').filter((segment) => segment !== '');
  const screen: Screen = (SCREENS as readonly string[]).includes(first ?? '') ? (first as Screen) : 'overview';
  const route: Route = { screen, filters: parseFilters(params) };
  if (screen === 'breaches' && rest.length > 0) {
    try {
      route.breachId = decodeURIComponent(rest.join('/'));
    } catch {
      // A malformed escape: show the list rather than a broken detail pane.
    }
  }
  if (screen === 'graph') route.graph = parseGraph(params);
  if (screen === 'fix') {
    const fix: FixRoute = {};
    try {
      if (rest.length > 0) fix.breachId = decodeURIComponent(rest.join('/'));
    } catch {
      // A malformed escape: every breach rather than an error.
    }
    const group = params.get('group')?.trim();
    if (group) fix.group = group.slice(0, 40);
    route.fix = fix;
  }
  return route;
}

// The graph query's limits are the contract's (shared/graph/response.ts GraphLimits), repeated
// so the router does not pull zod into the renderer's first chunk.
function parseGraph(params: URLSearchParams): GraphRoute {
  const nodes = [
    ...new Set(
      params
        .getAll('nodes')
        .map((n) => n.trim())
        .filter((n) => n !== '' && n.length <= 512),
    ),
  ].slice(0, 500);
  const property = (params.get('property') ?? '').trim().slice(0, 2000) || DEFAULT_GRAPH_PROPERTY;
  return { nodes, property, endpoint: params.get('endpoint') === 'remote' ? 'remote' : 'embedded' };
}

export function parseFilters(params: URLSearchParams): Filters {
  const unique = (values: string[]) => [...new Set(values.map((v) => v.trim()).filter((v) => v !== ''))];
  const sort = params.get('sort');
  const filters: Filters = {
    dataClasses: unique(params.getAll('dataClasses')),
    unresolvedDataClasses: unique(params.getAll('unresolvedDataClasses')),
    includeSensitive: params.get('includeSensitive') === 'true',
    text: (params.get('text') ?? '').slice(0, MAX_TEXT),
    sort: (SORTS as readonly string[]).includes(sort ?? '') ? (sort as Sort) : 'breachDate',
  };
  if (params.get('includeFlagged') === 'true') filters.includeFlagged = true;
  const domain = params.get('domain')?.trim();
  if (domain) filters.domain = domain;
  const email = params.get('email')?.trim();
  if (email) filters.email = email;
  const advanced = advancedFilterOf(params.get('filter') ?? '');
  if (advanced) filters.advanced = advanced;
  return filters;
}

const MAX_ADVANCED = 4000;

/** Compact JSON of an advanced filter text when it is a JSON object; undefined otherwise (a stale URL shows the list unfiltered). */
export function advancedFilterOf(text: string): string | undefined {
  if (text.trim() === '' || text.length > MAX_ADVANCED) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.keys(value).length === 0) return undefined;
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** Only what differs from the defaults, so URLs stay short and shareable between reloads. */
export function filtersToParams(filters: Filters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.text) params.set('text', filters.text);
  if (filters.domain) params.set('domain', filters.domain);
  if (filters.email) params.set('email', filters.email);
  for (const name of filters.dataClasses) params.append('dataClasses', name);
  for (const name of filters.unresolvedDataClasses) params.append('unresolvedDataClasses', name);
  if (filters.includeSensitive) params.set('includeSensitive', 'true');
  if (filters.includeFlagged) params.set('includeFlagged', 'true');
  if (filters.advanced) params.set('filter', filters.advanced);
  if (filters.sort !== 'breachDate') params.set('sort', filters.sort);
  return params;
}

export function formatHash(route: Route): string {
  let path = `#/${route.screen}`;
  if (route.screen === 'breaches' && route.breachId) path += `/${encodeURIComponent(route.breachId)}`;
  // Filters belong to the breaches screen, but are kept while visiting the others so coming
  // back finds them as left.
  const params = filtersToParams(route.filters);
  if (route.screen === 'graph' && route.graph) {
    const graph = new URLSearchParams();
    for (const node of route.graph.nodes) graph.append('nodes', node);
    if (route.graph.nodes.length > 0 || route.graph.property !== DEFAULT_GRAPH_PROPERTY) graph.set('property', route.graph.property);
    if (route.graph.endpoint === 'remote') graph.set('endpoint', 'remote');
    for (const [key, value] of params) graph.append(key, value);
    const query = graph.toString();
    return query ? `${path}?${query}` : path;
  }
  if (route.screen === 'fix') {
    if (route.fix?.breachId) path += `/${encodeURIComponent(route.fix.breachId)}`;
    const fix = new URLSearchParams();
    if (route.fix?.group) fix.set('group', route.fix.group);
    for (const [key, value] of params) fix.append(key, value);
    const query = fix.toString();
    return query ? `${path}?${query}` : path;
  }
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

export function toListQuery(filters: Filters): ListQuery {
  const query: ListQuery = { includeSensitive: filters.includeSensitive, sort: filters.sort, offset: 0, limit: 10_000 };
  if (filters.includeFlagged) query.includeFlagged = true;
  // The domain field matches any part of the domain ("dobe" finds adobe.com) as the person types.
  if (filters.domain) query.domainContains = filters.domain;
  if (filters.email) query.email = filters.email;
  if (filters.dataClasses.length > 0) query.dataClasses = filters.dataClasses;
  if (filters.unresolvedDataClasses.length > 0) query.unresolvedDataClasses = filters.unresolvedDataClasses;
  if (filters.text.trim()) query.text = filters.text.trim();
  if (filters.advanced) query.metadataFilter = JSON.parse(filters.advanced) as ListQuery['metadataFilter'];
  return query;
}

export function sameFilters(a: Filters, b: Filters): boolean {
  return filtersToParams(a).toString() === filtersToParams(b).toString();
}

export function hasActiveFilters(filters: Filters): boolean {
  return filtersToParams({ ...filters, sort: 'breachDate' }).toString() !== '';
}
