// Questions people ask of the graph, in their words. Each compiles to a relation expression of
// the shared grammar (shared/graph/expression.ts) and runs through the same store as a typed
// expression; a question the engine cannot ask in one arrow (it answers one hop at a time)
// names the arc whose nodes are expanded once the first answer is in.
import { parseExpression, printExpression } from '../../../shared/graph/expression.ts';
import { kindOf, type NodeKind } from '../../lib/graphAnswers.ts';

export interface GraphPreset {
  id: string;
  /** What the person asks, as they would say it. */
  label: string;
  /** The start nodes it makes sense for. */
  appliesTo: readonly NodeKind[];
  property: string;
  /** Expand every node the first answer reaches over this arc (its own expansion, see expansionFor). */
  thenExpand?: string;
}

export const GRAPH_PRESETS: readonly GraphPreset[] = [
  { id: 'everything', label: 'Everything about this breach', appliesTo: ['Breach', 'other'], property: '->*' },
  { id: 'exposed', label: 'The data this breach exposed', appliesTo: ['Breach', 'other'], property: '->dataClass' },
  { id: 'same-data', label: 'Other breaches that exposed the same data', appliesTo: ['Breach', 'other'], property: '->dataClass', thenExpand: 'dataClass' },
  { id: 'same-domain', label: 'Other breaches of the same domain', appliesTo: ['Breach', 'other'], property: '->domain', thenExpand: 'domain' },
  { id: 'exposed-by', label: 'Breaches that exposed this data', appliesTo: ['DataClass'], property: '<-dataClass' },
  { id: 'of-domain', label: 'Breaches of this domain', appliesTo: ['Domain'], property: '<-domain' },
  { id: 'instances', label: 'Every one of this type', appliesTo: ['Class'], property: '<-typeOf' },
  { id: 'links-from', label: 'Everything it links to', appliesTo: ['DataClass', 'Domain', 'Class'], property: '->*' },
];

/** The presets that fit every start node (all of them while there are none yet). */
export function presetsFor(nodes: readonly string[]): GraphPreset[] {
  const kinds = new Set(nodes.map((node) => kindOf(node)));
  if (kinds.size === 0) return [...GRAPH_PRESETS];
  return GRAPH_PRESETS.filter((preset) => [...kinds].every((kind) => preset.appliesTo.includes(kind)));
}

/** The preset an expression stands for: the one-step question that prints the same text. */
export function presetOf(property: string, presets: readonly GraphPreset[]): GraphPreset | undefined {
  const parsed = parseExpression(property);
  if (!parsed.ok) return undefined;
  const text = printExpression(parsed.ast);
  return presets.find((preset) => preset.property === text && preset.thenExpand === undefined);
}
