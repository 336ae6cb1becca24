import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { parseExpression, printExpression } from '../../../shared/graph/expression.ts';
import { viewCreditsHibp } from '../../../shared/ipc/checks.ts';
import { Credit } from '../../components/Credit.tsx';
import { Icon } from '../../components/Icon.tsx';
import { EmptyState, ErrorState, Skeleton } from '../../components/States.tsx';
import { formatDateTime, plural } from '../../lib/format.ts';
import { expansionFor, kindOf, type NodeKind } from '../../lib/graphAnswers.ts';
import { EMPTY_FILTERS, formatHash, type GraphRoute } from '../../lib/urlState.ts';
import { useChecks } from '../../state/checks.ts';
import { useRoute } from '../../state/route.ts';
import { DemoTag } from '../checks/DemoLabel.tsx';
import { EndpointSwitch } from './EndpointSwitch.tsx';
import { ExpressionBuilder } from './ExpressionBuilder.tsx';
import { GraphView } from './GraphView.tsx';
import { rememberGraphQuery } from './lastQuery.ts';
import { buildGraph, expansionTitle, parseNodeList, readableLabel, relationWords, withoutNodes } from './model.ts';
import { PresetPicker } from './PresetPicker.tsx';
import { presetOf, presetsFor, type GraphPreset } from './presets.ts';
import { ResultsTable } from './ResultsTable.tsx';
import { StartNodes } from './StartNodes.tsx';
import { useGraphQueries, type Endpoint, type QueryBlock } from './useGraphQueries.ts';

/** More than this and the drawing is a hairball; the tables still hold everything. */
const MAX_DRAWN_NODES = 600;

/** Neighbours of one node over one arc drawn one by one; more wait in a "+N more" group. */
const GROUP_LIMIT = 12;

// The contract's request limits (shared/graph/response.ts GraphLimits), checked before asking.
const MAX_NODES = 500;
const MAX_NODE_ID = 512;

const EMPTY_GRAPH: GraphRoute = { nodes: [], property: '->*', endpoint: 'embedded' };

function queryKey(query: GraphRoute): string {
  return formatHash({ screen: 'graph', filters: EMPTY_FILTERS, graph: query });
}

function nodesProblem(nodes: string[]): string | undefined {
  if (nodes.length === 0) return 'Add at least one start node.';
  if (nodes.length > MAX_NODES) return `At most ${MAX_NODES} start nodes per query.`;
  const long = nodes.find((node) => node.length > MAX_NODE_ID);
  return long ? `A node id may be at most ${MAX_NODE_ID} characters.` : undefined;
}

export function GraphPage() {
  const route = useRoute((s) => s.route);
  const navigate = useRoute((s) => s.navigate);
  const query = route.graph ?? EMPTY_GRAPH;
  const key = queryKey(query);
  const queries = useGraphQueries();
  const [runs, setRuns] = useState(0);
  const [focusBlock, setFocusBlock] = useState<number>();
  const [literals, setLiterals] = useState(true);
  const [announcement, setAnnouncement] = useState('');
  const id = useId();

  // The form starts from the URL and follows it when the URL changes (back, forward, "Explore
  // in graph"); edits stay in the form until "Run query".
  const [nodesText, setNodesText] = useState(query.nodes.join(', '));
  const [expression, setExpression] = useState(query.property);
  const [endpoint, setEndpoint] = useState<Endpoint>(query.endpoint);
  const [nodesError, setNodesError] = useState<string>();
  // The question in plain words; undefined while the expression is the person's own.
  const [preset, setPreset] = useState<GraphPreset | undefined>(() => presetOf(query.property, presetsFor(query.nodes)));
  // A preset's second hop, for the run it was chosen for (the URL carries only the expression).
  const thenExpand = useRef<string>(undefined);
  const [advanced, setAdvanced] = useState(() => query.nodes.length > 0 && presetOf(query.property, presetsFor(query.nodes)) === undefined);
  const [shown, setShown] = useState<ReadonlyMap<string, number>>(new Map());
  // The preset whose run is on the pane, when it has a second step ("Other breaches that exposed
  // the same data"): its expansions answer "other" breaches, so they leave out the start nodes.
  const [secondHop, setSecondHop] = useState<GraphPreset>();
  useEffect(() => {
    if (thenExpand.current === undefined) setSecondHop(undefined);
    setNodesText(query.nodes.join(', '));
    setExpression(query.property);
    setEndpoint(query.endpoint);
    setNodesError(undefined);
    setShown(new Map());
    if (thenExpand.current === undefined) {
      const matching = presetOf(query.property, presetsFor(query.nodes));
      setPreset(matching);
      if (!matching && query.nodes.length > 0) setAdvanced(true);
    }
    rememberGraphQuery(query);
  }, [key]); // key stands for every field of query

  const runnable = query.nodes.length > 0 && parseExpression(query.property).ok;
  useEffect(() => {
    if (runnable) queries.run(query, thenExpand.current);
    thenExpand.current = undefined;
  }, [key, runs]); // key stands for query; runs re-asks the same query

  // Arriving with a query ("Explore in graph", a link, back): once the first answer is drawn,
  // the drawing is what the person came for, so it scrolls into view.
  const drawingRef = useRef<HTMLElement>(null);
  const arrived = useRef(query.nodes.length > 0);

  function submit() {
    const nodes = parseNodeList(nodesText);
    const problem = nodesProblem(nodes);
    setNodesError(problem);
    const parsed = parseExpression(expression);
    if (problem || !parsed.ok) return;
    const next: GraphRoute = { nodes, property: printExpression(parsed.ast), endpoint };
    thenExpand.current = preset?.property === next.property ? preset.thenExpand : undefined;
    setSecondHop(thenExpand.current !== undefined ? preset : undefined);
    if (queryKey(next) === key) setRuns((n) => n + 1);
    else navigate({ ...route, screen: 'graph', graph: next });
  }

  // A second step's answers without the nodes the question started from (Adobe is not one of
  // the "other breaches" that exposed Adobe's data).
  const blocks = useMemo(() => {
    if (!secondHop) return queries.blocks;
    const start = new Set(queries.blocks.find((block) => block.origin === 'root')?.nodes ?? []);
    return queries.blocks.map((block) => (block.origin === 'expand' && block.direction === 'in' && block.response ? { ...block, response: withoutNodes(block.response, start) } : block));
  }, [queries.blocks, secondHop]);
  const answered = blocks.filter((block) => block.response);
  const graph = useMemo(() => buildGraph(answered, { literals, maxNodes: MAX_DRAWN_NODES, groupLimit: GROUP_LIMIT, shown }), [blocks, literals, shown]); // answered derives from blocks

  function showMore(groupKey: string) {
    const group = graph.groups.find((g) => g.key === groupKey);
    if (!group) return;
    setShown((before) => new Map(before).set(groupKey, group.shown + GROUP_LIMIT));
    setAnnouncement(`Drawing ${Math.min(GROUP_LIMIT, group.hidden)} more ${group.noun} of ${group.subjectLabel}.`);
  }
  // A node counts as expanded when its own expansion is on the pane, the root query's included.
  const expanded = useMemo(() => {
    const kinds = new Map(graph.nodes.map((node) => [node.id, node.kind]));
    const set = new Set<string>();
    for (const block of queries.blocks) for (const node of block.nodes) if (block.property === expansionFor(kinds.get(node) ?? kindOf(node))) set.add(node);
    return set;
  }, [queries.blocks, graph]);

  function expand(dcid: string, kind: NodeKind, from: 'table' | 'graph') {
    const blockId = queries.expand(dcid, kind);
    if (blockId === undefined) return;
    setAnnouncement(`Expanding ${dcid}…`);
    // From the table, focus follows to the answer; a tap on the drawing keeps the drawing in view.
    if (from === 'table') setFocusBlock(blockId);
  }

  const root = queries.blocks.find((block) => block.origin === 'root');
  const parsedDraft = parseExpression(expression);
  const rootReady = root?.status === 'ready';
  useEffect(() => {
    if (!rootReady || !arrived.current) return;
    arrived.current = false;
    drawingRef.current?.scrollIntoView?.({ block: 'start' });
  }, [rootReady]);
  const draftNodes = parseNodeList(nodesText);
  // The embedded engine answers from the account's own breaches: invented ones are labelled, and
  // Have I Been Pwned is credited only when they are its data. A remote endpoint's answers are
  // that endpoint's data, whose origin the app cannot know: neither claimed (docs/graph.md).
  const checks = useChecks((s) => s.view);
  const demo = checks.source === 'demo';
  const showsEmbedded = answered.some((block) => block.source === 'embedded');
  const showsRemote = answered.some((block) => block.source !== 'embedded');

  return (
    <div className="page page-graph">
      <div className="page-head">
        <h1 className="page-title">Graph</h1>
      </div>
      <p className="page-lead">
        How your breaches, their domains and the data they exposed connect. Start from a breach, a domain or a data class, choose a question, then click any node to go further.
      </p>

      <div className="graph-setup">
        <form
          className="card graph-query"
          aria-labelledby={`${id}-query`}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <h2 id={`${id}-query`} className="card-title">
            Query
          </h2>
          <StartNodes
            text={nodesText}
            error={nodesError}
            onChange={(text) => {
              setNodesText(text);
              setNodesError(undefined);
            }}
          />
          <PresetPicker
            presets={presetsFor(draftNodes)}
            chosen={preset && expression === preset.property ? preset : undefined}
            onChoose={(next) => {
              setPreset(next);
              setExpression(next.property);
            }}
          />
          <details className="graph-advanced" open={advanced} onToggle={(event) => setAdvanced(event.currentTarget.open)}>
            <summary className="graph-advanced-summary">Advanced: relation expression</summary>
            <ExpressionBuilder
              text={expression}
              onChange={(text) => {
                setExpression(text);
                setPreset(undefined);
              }}
            />
          </details>
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={!parsedDraft.ok}>
              Run query
            </button>
          </div>
        </form>
        <EndpointSwitch endpoint={endpoint} onChange={setEndpoint} />
      </div>

      <p className="visually-hidden" role="status">
        {announcement}
      </p>

      {query.nodes.length === 0 ? (
        <EmptyState icon="search" title="Start from a breach, a domain or a data class">
          <p>Add a start node above, or open a breach and choose “Explore in graph”.</p>
        </EmptyState>
      ) : !runnable ? (
        <EmptyState icon="alert" title="This address holds an expression that doesn’t parse">
          <p>Fix the relation expression above and run the query.</p>
        </EmptyState>
      ) : (
        <>
          {root?.source === 'cache' ? (
            <p className="notice notice-pending">
              <Icon name="cloudOff" />
              <span>
                <strong>The remote endpoint isn’t answering{root.offlineReason ? ` (${root.offlineReason})` : ''}.</strong> This is the answer saved{' '}
                {root.fetchedAt ? <time dateTime={root.fetchedAt}>{formatDateTime(root.fetchedAt)}</time> : 'earlier'}.
              </span>
            </p>
          ) : null}

          <section ref={drawingRef} className="card graph-drawing" aria-labelledby={`${id}-drawing`}>
            <div className="graph-drawing-head">
              <h2 id={`${id}-drawing`} className="card-title">
                Drawing
              </h2>
              <label className="check-inline">
                <input type="checkbox" checked={literals} onChange={(event) => setLiterals(event.target.checked)} />
                Show values (dates, names)
              </label>
            </div>
            {graph.omitted > 0 ? (
              <p className="form-note">
                <Icon name="alert" size={14} /> The drawing shows the first {MAX_DRAWN_NODES} nodes; the tables hold all {plural(graph.nodes.length + graph.omitted, 'node')}.
              </p>
            ) : null}
            <GraphView graph={graph} expanded={expanded} onExpand={(dcid, kind) => expand(dcid, kind, 'graph')} onShowMore={showMore} />
            {graph.groups.length > 0 ? (
              <ul className="graph-groups" aria-label="Groups in the drawing">
                {graph.groups.map((group) => (
                  <li key={group.key}>
                    <span className="kind-swatch kind-group" aria-hidden="true" />
                    <span>
                      <strong>{group.subjectLabel}</strong>: {group.shown} of {group.shown + group.hidden} {group.noun} drawn ({relationWords(group.arc, group.direction)})
                    </span>
                    <button
                      type="button"
                      className="button button-small"
                      aria-label={`Draw ${Math.min(GROUP_LIMIT, group.hidden)} more ${group.noun} of ${group.subjectLabel}`}
                      onClick={() => showMore(group.key)}
                    >
                      Draw {Math.min(GROUP_LIMIT, group.hidden)} more
                    </button>
                  </li>
                ))}
              </ul>
            ) : null}
          </section>

          <section className="graph-results" aria-labelledby={`${id}-results`}>
            <h2 id={`${id}-results`} className="section-title graph-results-title">
              Answers
            </h2>
            {blocks.map((block) => (
              <Block
                key={block.id}
                block={block}
                others={secondHop !== undefined}
                demo={demo && block.source === 'embedded'}
                focus={focusBlock === block.id}
                onFocused={() => setFocusBlock(undefined)}
                isExpanded={(dcid, kind) => queries.covering(dcid, kind) !== undefined}
                onExpand={(dcid, kind) => expand(dcid, kind, 'table')}
                onLoadMore={() => void queries.loadMore(block.id)}
                onStop={() => queries.stop(block.id)}
                onRetry={() => queries.retry(block.id)}
                onRemove={() => queries.remove(block.id)}
              />
            ))}
          </section>
        </>
      )}
      {showsEmbedded && viewCreditsHibp(checks) ? <Credit className="graph-credit" /> : null}
      {showsRemote ? <p className="credit graph-credit">Answers from the remote endpoint are its own data: their source and terms are the endpoint’s.</p> : null}
    </div>
  );
}

interface BlockProps {
  block: QueryBlock;
  /** The block answers a preset's second step: "other" breaches. */
  others: boolean;
  /** The answer is the embedded engine's over invented (demo) breaches. */
  demo: boolean;
  focus: boolean;
  onFocused(): void;
  isExpanded(dcid: string, kind: NodeKind): boolean;
  onExpand(dcid: string, kind: NodeKind): void;
  onLoadMore(): void;
  onStop(): void;
  onRetry(): void;
  onRemove(): void;
}

function nodesText(nodes: readonly string[]): string {
  const names = nodes.map(readableLabel);
  return names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ');
}

/**
 * What a block asked, in words: a preset's question and its start nodes ("The data this breach
 * exposed: Adobe"), an expansion's ("Breaches that exposed Passwords"); an expression the person
 * wrote stays as written, since that is what they asked.
 */
function blockTitle(block: QueryBlock, others: boolean): { words: string; expression: boolean } {
  const subject = block.nodes.length === 1 ? block.nodes[0]! : undefined;
  if (block.origin === 'expand' && subject) {
    const words = expansionTitle(subject, block.kind ?? kindOf(subject), block.property, readableLabel(subject), others);
    if (words) return { words, expression: false };
  }
  const preset = block.origin === 'root' ? presetOf(block.property, presetsFor(block.nodes)) : undefined;
  if (preset) return { words: `${preset.label}: ${nodesText(block.nodes)}`, expression: false };
  const nodes = block.nodes.length > 3 ? `${block.nodes.slice(0, 3).join(', ')} and ${block.nodes.length - 3} more` : block.nodes.join(', ');
  return { words: `${nodes} ${block.property}`, expression: true };
}

function Block({ block, others, demo, focus, onFocused, isExpanded, onExpand, onLoadMore, onStop, onRetry, onRemove }: BlockProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const id = useId();
  useEffect(() => {
    if (!focus) return;
    heading.current?.focus();
    heading.current?.scrollIntoView({ block: 'nearest' });
    onFocused();
  }, [focus, onFocused]);

  const { words: title, expression } = blockTitle(block, others);
  const subject = block.nodes.length === 1 ? block.nodes[0]! : undefined;
  const values = block.response
    ? Object.values(block.response.data).reduce((n, data) => n + (data.properties?.length ?? 0) + Object.values(data.arcs ?? {}).reduce((m, arc) => m + arc.nodes.length, 0), 0)
    : 0;
  const more = block.response?.nextToken !== undefined;
  const source = block.source === 'embedded' ? 'embedded engine' : block.source === 'network' ? 'remote endpoint' : block.source === 'cache' ? 'saved answer' : undefined;

  return (
    <section className="graph-block" aria-labelledby={`${id}-title`} aria-busy={block.status === 'loading'} data-origin={block.origin} data-node={subject}>
      <div className="graph-block-head">
        <h3 id={`${id}-title`} ref={heading} tabIndex={-1} className="graph-block-title">
          {block.origin === 'expand' && subject ? <span className={`kind-swatch kind-${block.kind ?? kindOf(subject)}`} aria-hidden="true" /> : null}
          {expression ? <code>{title}</code> : title}
        </h3>
        {block.origin === 'expand' ? (
          <button type="button" className="button button-ghost button-small" onClick={onRemove}>
            Remove
          </button>
        ) : null}
      </div>

      {block.status === 'loading' ? (
        <Skeleton lines={3} />
      ) : block.status === 'error' ? (
        <ErrorState title="This query didn’t get an answer" message={block.error ?? 'Something went wrong.'} onRetry={onRetry} />
      ) : (
        <>
          <p className="graph-block-meta">
            {demo ? (
              <>
                <DemoTag />{' '}
              </>
            ) : null}
            {plural(values, 'value')}
            {source ? ` · from the ${source}` : ''}
            {block.fetchedAt ? (
              <>
                {' · '}
                <time dateTime={block.fetchedAt}>{formatDateTime(block.fetchedAt)}</time>
              </>
            ) : null}
          </p>
          <ResultsTable block={block} caption={`Answers of ${title}`} isExpanded={isExpanded} onExpand={onExpand} />
        </>
      )}

      {block.status === 'ready' ? (
        <div className="graph-more">
          {more && !block.streaming ? (
            <button type="button" className="button button-small" onClick={onLoadMore}>
              Load more
            </button>
          ) : null}
          {block.streaming ? (
            <>
              <span className="progress-indeterminate progress-inline" aria-hidden="true" />
              <button type="button" className="button button-ghost button-small" onClick={onStop}>
                Stop
              </button>
            </>
          ) : null}
          <p className="graph-progress" role="status">
            {block.streaming
              ? `Loaded ${plural(block.pages, 'page')}…`
              : block.pages > 1
                ? `Loaded ${plural(block.pages, 'page')}${more ? '; more are available.' : ', every value.'}`
                : more
                  ? 'More values are available.'
                  : ''}
          </p>
          {block.moreError ? (
            <p className="inline-error" role="alert">
              More values couldn’t be loaded: {block.moreError}
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
