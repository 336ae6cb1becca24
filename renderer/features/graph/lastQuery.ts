import { onAccountChange } from '../../lib/accountScope.ts';
import type { GraphRoute } from '../../lib/urlState.ts';

// Only graph URLs carry the graph's query, so leaving the pane drops it from the route; the nav
// link brings the person back to the query they left rather than to an empty pane.
let last: GraphRoute | undefined;
// The query names the person's breaches: the next account does not get it back.
onAccountChange(() => (last = undefined));

export function rememberGraphQuery(query: GraphRoute | undefined): void {
  if (query && query.nodes.length > 0) last = query;
}

export function lastGraphQuery(): GraphRoute | undefined {
  return last;
}
