import { useEffect, useRef, useState } from 'react';
import type cytoscape from 'cytoscape';
import type { NodeKind } from '../../lib/graphAnswers.ts';
import { groupNodeId, KIND_LABELS, relationWords, type GraphModel } from './model.ts';

export interface GraphViewProps {
  graph: GraphModel;
  /** Ids of nodes whose expansion is on the pane: drawn with a heavier ring. */
  expanded: ReadonlySet<string>;
  onExpand(dcid: string, kind: NodeKind): void;
  /** Draw the next page of a group's neighbours. */
  onShowMore(groupKey: string): void;
}

/** Layouts that place every node afresh get slow past this; bigger graphs go in rings by degree. */
const FORCE_LAYOUT_LIMIT = 300;

/** Up to this many edges the drawing names every one; past it, only those of the pointed node. */
const EDGE_LABEL_LIMIT = 12;

// Cytoscape adds a <style> element for one rule unless an element with this id exists; the
// page's CSP (style-src 'self') refuses inline style, so the rule is in graph.css and a
// placeholder with the id keeps cytoscape from trying.
const CYTOSCAPE_STYLESHEET_ID = '__________cytoscape_stylesheet';

function canDrawOnCanvas(): boolean {
  try {
    return document.createElement('canvas').getContext('2d') !== null;
  } catch {
    return false;
  }
}

interface Colours {
  breach: string;
  domain: string;
  dataClass: string;
  type: string;
  literal: string;
  other: string;
  edge: string;
  text: string;
  muted: string;
  surface: string;
  focus: string;
  font: string;
}

/**
 * The theme's colours, from the style sheet's custom properties (light, dark, or the system's).
 * A property holds `light-dark(…, …)` until used, so each is resolved by the browser on a hidden
 * probe (its computed `color`), which the canvas can take.
 */
function readColours(element: Element): Colours {
  const probe = element.ownerDocument.createElement('span');
  probe.hidden = true;
  element.appendChild(probe);
  const get = (name: string, fallback: string) => {
    probe.style.color = `var(${name}, ${fallback})`;
    return getComputedStyle(probe).color || fallback;
  };
  try {
    return readAll(get, getComputedStyle(element).getPropertyValue('--font').trim() || 'system-ui, sans-serif');
  } finally {
    probe.remove();
  }
}

function readAll(get: (name: string, fallback: string) => string, font: string): Colours {
  return {
    breach: get('--graph-breach', '#3451c7'),
    domain: get('--graph-domain', '#0b6a80'),
    dataClass: get('--graph-dataclass', '#875300'),
    type: get('--graph-type', '#6f35a8'),
    literal: get('--graph-literal', '#6b7280'),
    other: get('--graph-other', '#575e6b'),
    edge: get('--graph-edge', '#c6cbd4'),
    text: get('--text', '#181b21'),
    muted: get('--text-muted', '#575e6b'),
    surface: get('--surface', '#ffffff'),
    focus: get('--focus', '#3451c7'),
    font,
  };
}

function styleFor(c: Colours): cytoscape.StylesheetJson {
  return [
    {
      selector: 'node',
      style: {
        'background-color': c.other,
        label: 'data(label)',
        color: c.text,
        'font-family': c.font,
        'font-size': 12,
        'text-valign': 'bottom',
        'text-margin-y': 4,
        'text-wrap': 'ellipsis',
        'text-max-width': '140px',
        'text-outline-color': c.surface,
        'text-outline-width': 2,
        // Below this a label is an unreadable smudge: hidden until zoomed in or pointed at.
        // Groups keep drawings small enough that names stay on at the usual zoom.
        'min-zoomed-font-size': 5,
        width: 22,
        height: 22,
        'border-width': 1.5,
        'border-color': c.surface,
      },
    },
    { selector: 'node[kind = "Breach"]', style: { 'background-color': c.breach, shape: 'round-rectangle', width: 26, height: 26 } },
    { selector: 'node[kind = "Domain"]', style: { 'background-color': c.domain, shape: 'diamond', width: 26, height: 26 } },
    { selector: 'node[kind = "DataClass"]', style: { 'background-color': c.dataClass, shape: 'ellipse' } },
    { selector: 'node[kind = "Class"]', style: { 'background-color': c.type, shape: 'hexagon', width: 30, height: 30 } },
    { selector: 'node[kind = "literal"]', style: { 'background-color': c.literal, shape: 'rectangle', width: 9, height: 9, 'font-size': 10, color: c.muted } },
    {
      selector: 'node[kind = "group"]',
      style: {
        'background-color': c.surface,
        'border-color': c.muted,
        'border-width': 1.5,
        'border-style': 'dashed',
        shape: 'round-rectangle',
        width: 30,
        height: 18,
        color: c.muted,
        'font-style': 'italic',
        'min-zoomed-font-size': 0,
      },
    },
    { selector: 'node.expanded', style: { 'border-color': c.text, 'border-width': 3, 'font-weight': 600, 'min-zoomed-font-size': 0 } },
    { selector: 'node[kind = "Class"]', style: { 'min-zoomed-font-size': 0 } },
    { selector: 'node.pointed', style: { 'min-zoomed-font-size': 0, 'z-index': 10 } },
    { selector: 'node:selected', style: { 'border-color': c.focus, 'border-width': 4 } },
    {
      selector: 'edge',
      style: {
        width: 1.2,
        'line-color': c.edge,
        'target-arrow-color': c.edge,
        'target-arrow-shape': 'triangle',
        'arrow-scale': 0.8,
        'curve-style': 'bezier',
        // Words on every edge make a drawing of any size a smudge: they show on a small drawing
        // (`labelled`) and on the edges of the node under the pointer; the tables name them all.
        label: '',
        'font-family': c.font,
        'font-size': 9,
        color: c.muted,
        'text-rotation': 'autorotate',
        'text-outline-color': c.surface,
        'text-outline-width': 2,
        'min-zoomed-font-size': 8,
      },
    },
    { selector: 'edge[?repeat]', style: { 'line-style': 'dashed' } },
    { selector: 'edge.labelled, edge.pointed', style: { label: 'data(words)' } },
    { selector: 'edge.pointed', style: { 'line-color': c.muted, 'target-arrow-color': c.muted, 'min-zoomed-font-size': 0, 'z-index': 10 } },
  ];
}

function pointedAction(kind: NodeKind): string {
  switch (kind) {
    case 'DataClass':
      return 'show the breaches that exposed it';
    case 'Domain':
      return 'show its breaches';
    case 'Class':
      return 'list every one';
    default:
      return 'show its links';
  }
}

/**
 * The answers drawn with cytoscape (canvas: nothing for the CSP to object to). Loaded on first
 * use, so the rest of the app does not carry it. Tapping a node expands it; the tables below are
 * the same for the keyboard and screen readers, so the canvas itself is one labelled image.
 */
export function GraphView({ graph, expanded, onExpand, onShowMore }: GraphViewProps) {
  const container = useRef<HTMLDivElement>(null);
  const cyRef = useRef<cytoscape.Core | undefined>(undefined);
  const onExpandRef = useRef(onExpand);
  onExpandRef.current = onExpand;
  const onShowMoreRef = useRef(onShowMore);
  onShowMoreRef.current = onShowMore;
  const [state, setState] = useState<'loading' | 'ready' | 'unavailable'>(() => (canDrawOnCanvas() ? 'loading' : 'unavailable'));
  const [pointed, setPointed] = useState<{ label: string; id: string; kind: NodeKind; expandable: boolean }>();
  const groupOf = new Map(graph.groups.map((group) => [groupNodeId(group.key), group.key]));
  const edgeLabels = graph.edges.length <= EDGE_LABEL_LIMIT;

  useEffect(() => {
    if (state === 'unavailable') return;
    let cancelled = false;
    let cy: cytoscape.Core | undefined;
    if (!document.getElementById(CYTOSCAPE_STYLESHEET_ID)) {
      const placeholder = document.createElement('meta');
      placeholder.id = CYTOSCAPE_STYLESHEET_ID;
      placeholder.name = 'cytoscape-stylesheet';
      document.head.append(placeholder);
    }
    import('cytoscape')
      .then(({ default: create }) => {
        const element = container.current;
        if (cancelled || !element) return;
        cy = create({ container: element, style: styleFor(readColours(element)), minZoom: 0.15, maxZoom: 3, boxSelectionEnabled: false, selectionType: 'single' });
        cy.on('tap', 'node', (event) => {
          const node = event.target as cytoscape.NodeSingular;
          if (node.data('group') !== undefined) onShowMoreRef.current(String(node.data('group')));
          else if (node.data('expandable')) onExpandRef.current(node.id(), node.data('kind') as NodeKind);
        });
        cy.on('mouseover', 'node', (event) => {
          const node = event.target as cytoscape.NodeSingular;
          node.addClass('pointed');
          node.connectedEdges().addClass('pointed');
          const clickable = Boolean(node.data('expandable')) || node.data('group') !== undefined;
          if (clickable) element.style.cursor = 'pointer';
          setPointed({ id: node.id(), label: String(node.data('label')), kind: node.data('kind') as NodeKind, expandable: clickable });
        });
        cy.on('mouseout', 'node', (event) => {
          (event.target as cytoscape.NodeSingular).removeClass('pointed');
          (event.target as cytoscape.NodeSingular).connectedEdges().removeClass('pointed');
          element.style.cursor = '';
          setPointed(undefined);
        });
        cyRef.current = cy;
        setState('ready');
      })
      .catch(() => !cancelled && setState('unavailable'));
    return () => {
      cancelled = true;
      cy?.destroy();
      cyRef.current = undefined;
    };
  }, []); // once: the instance lives as long as the pane

  // Follow the theme: `data-theme` on <html>, or the system's scheme when it is "system".
  useEffect(() => {
    if (state !== 'ready') return;
    const restyle = () => {
      const cy = cyRef.current;
      if (cy && container.current) cy.style(styleFor(readColours(container.current)));
    };
    const observer = new MutationObserver(restyle);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class'] });
    const media = window.matchMedia?.('(prefers-color-scheme: dark)');
    media?.addEventListener('change', restyle);
    return () => {
      observer.disconnect();
      media?.removeEventListener('change', restyle);
    };
  }, [state]);

  useEffect(() => {
    const cy = cyRef.current;
    if (state !== 'ready' || !cy) return;
    const first = cy.nodes().empty();
    const wantNodes = new Map(graph.nodes.map((node) => [node.id, node]));
    const wantEdges = new Map(graph.edges.map((edge) => [edge.id, edge]));
    let added = 0;
    cy.batch(() => {
      cy.elements()
        .filter((el) => (el.isNode() ? !wantNodes.has(el.id()) : !wantEdges.has(el.id())))
        .remove();
      const fresh = graph.nodes.filter((node) => {
        const existing = cy.getElementById(node.id);
        if (existing.nonempty()) existing.data({ label: node.label, kind: node.kind });
        return existing.empty();
      });
      fresh.forEach((node, index) => {
        // A new node starts on a ring around a neighbour already placed, so a layout that does
        // not start from random places moves the drawing little on each expansion.
        const neighbour = graph.edges
          .map((edge) => (edge.target === node.id ? edge.source : edge.source === node.id ? edge.target : undefined))
          .find((id) => id !== undefined && cy.getElementById(id).nonempty());
        const near = neighbour ? cy.getElementById(neighbour).position() : { x: 0, y: 0 };
        const angle = (2 * Math.PI * index) / fresh.length;
        cy.add({
          group: 'nodes',
          data: { id: node.id, label: node.label, kind: node.kind, expandable: node.expandable, group: groupOf.get(node.id) },
          position: { x: near.x + 110 * Math.cos(angle), y: near.y + 110 * Math.sin(angle) },
        });
        added += 1;
      });
      for (const edge of graph.edges) {
        if (cy.getElementById(edge.id).nonempty()) continue;
        cy.add({ group: 'edges', data: { id: edge.id, source: edge.source, target: edge.target, label: edge.label, words: relationWords(edge.label, 'out'), repeat: edge.label.endsWith('+') } });
        added += 1;
      }
      if (edgeLabels) cy.edges().addClass('labelled');
      else cy.edges().removeClass('labelled');
      cy.nodes().forEach((node) => {
        if (expanded.has(node.id())) node.addClass('expanded');
        else node.removeClass('expanded');
      });
    });
    if (added === 0) return;
    // The container may have been laid out (or resized) since cytoscape measured it: measure
    // again so `fit` puts the whole drawing in view.
    cy.resize();
    const options: cytoscape.LayoutOptions =
      cy.nodes().length > FORCE_LAYOUT_LIMIT
        ? { name: 'concentric', animate: false, fit: true, padding: 24, minNodeSpacing: 8, concentric: (node: cytoscape.NodeSingular) => node.degree(false), levelWidth: () => 2 }
        : { name: 'cose', animate: false, randomize: first, fit: true, padding: 24, nodeDimensionsIncludeLabels: true, idealEdgeLength: () => 70, nodeRepulsion: () => 9000 };
    cy.layout(options).run();
  }, [graph, expanded, state, edgeLabels]);

  const literals = graph.nodes.filter((node) => node.kind === 'literal').length;
  const nodes = graph.nodes.length - literals - graph.groups.length + graph.grouped;
  const grouped = graph.grouped ? `, ${graph.grouped} of them in ${graph.groups.length === 1 ? 'a group' : 'groups'}` : '';
  const label = `Graph of ${nodes} nodes${grouped}${literals ? ` and ${literals} values` : ''}, ${graph.edges.length} links. Select a node to expand it; the tables below hold the same answers.`;

  return (
    <div className="graph-canvas-wrap">
      {state === 'unavailable' ? (
        <p className="graph-canvas-unavailable">The drawing isn’t available here; the tables below hold every answer.</p>
      ) : (
        <div ref={container} className="graph-canvas" role="img" aria-label={label} aria-busy={state === 'loading'} data-edge-labels={edgeLabels ? 'shown' : 'hidden'} />
      )}
      {/* What the pointer is on: labels of a zoomed-out drawing are hidden. Pointer-only, so
          not announced; the tables say the same to everyone. */}
      <p className="graph-pointed" aria-hidden="true">
        {pointed ? (
          <>
            <span className={`kind-swatch kind-${pointed.kind}`} />
            <strong>{pointed.label}</strong>
            {pointed.label !== pointed.id && pointed.kind !== 'literal' && pointed.kind !== 'group' ? <code>{pointed.id}</code> : null}
            <span className="muted">
              {KIND_LABELS[pointed.kind]}
              {pointed.expandable ? ` · click to ${pointed.kind === 'group' ? 'draw more of them' : pointedAction(pointed.kind)}` : ''}
            </span>
          </>
        ) : (
          <span className="muted">Point at a node to see it; click to expand it. Scroll to zoom, drag to move.</span>
        )}
      </p>
      <ul className="graph-legend" aria-label="Legend">
        {(['Breach', 'Domain', 'DataClass', 'Class', 'literal', 'group'] as const).map((kind) => (
          <li key={kind}>
            <span className={`kind-swatch kind-${kind}`} aria-hidden="true" />
            {KIND_LABELS[kind]}
          </li>
        ))}
        <li>
          <span className="kind-swatch kind-expanded" aria-hidden="true" />
          Expanded
        </li>
      </ul>
    </div>
  );
}
