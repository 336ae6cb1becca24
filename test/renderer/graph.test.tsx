// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, test } from 'vitest';
import { dataClassNode } from '../../shared/graph/nodeIds.ts';
import { expansionFor, kindOf, mergePage } from '../../renderer/lib/graphAnswers.ts';
import { buildGraph, groupNodeId, readableLabel, rowsOf } from '../../renderer/features/graph/model.ts';
import { GRAPH_PRESETS, presetOf, presetsFor } from '../../renderer/features/graph/presets.ts';
import { describeExpression } from '../../renderer/features/graph/ExpressionBuilder.tsx';
import { formatHash, parseHash } from '../../renderer/lib/urlState.ts';
import { parseExpression } from '../../shared/graph/expression.ts';
import type { NodeResponse } from '../../shared/graph/response.ts';
import { UNKNOWN_CHECKS } from '../../shared/ipc/checks.ts';
import { FakeCore, FakeGraph } from './fakeCore.ts';
import { expectAccessible, renderApp } from './setup.tsx';

// jsdom has no canvas: the drawing says so and the tables carry every answer, which is what
// these tests read. The drawing itself is exercised in Chromium (test/e2e/graph.e2e.test.ts).
beforeAll(() => {
  HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;
});

const graphHash = (nodes: string[], property: string, extra = '') => `#/graph?${nodes.map((n) => `nodes=${encodeURIComponent(n)}`).join('&')}&property=${encodeURIComponent(property)}${extra}`;

/** What the fake's engine answers, to compare the screen with. */
function answerOf(core: FakeCore, nodes: string[], property: string): NodeResponse {
  return new FakeGraph(core.breaches.map((b) => b.breach)).query(nodes, property, undefined, 10_000);
}

function targets(response: NodeResponse, node: string, arc: string): string[] {
  return (response.data[node]?.arcs?.[arc]?.nodes ?? []).flatMap((item) => (item.dcid ? [item.dcid] : []));
}

/** Every linked node of an answer's table, expandable or already expanded. */
function tableNodes(region: HTMLElement): string[] {
  return [...region.querySelectorAll('.graph-target-text code')].map((code) => code.textContent ?? '');
}

/** The linked nodes that still offer "Expand". */
function tableTargets(region: HTMLElement): string[] {
  return within(region)
    .queryAllByRole('button', { name: /^Expand / })
    .map((button) => button.getAttribute('aria-label')!.slice('Expand '.length));
}

describe('graph model', () => {
  test('node ids follow the engine: data class slugs and domains', () => {
    expect(dataClassNode('Email addresses')).toBe('dataClass/email-addresses');
    expect(dataClassNode('Credit card CVV')).toBe('dataClass/credit-card-cvv');
    expect(dataClassNode('  Geographic   locations! ')).toBe('dataClass/geographic-locations');
    expect(dataClassNode('!!!')).toBe('dataClass/x212121');
    expect(kindOf('domain/adobe.com')).toBe('Domain');
    expect(kindOf('Adobe', ['Breach'])).toBe('Breach');
    expect(kindOf('Breach')).toBe('Class');
    expect(expansionFor('DataClass')).toBe('<-dataClass');
    expect(expansionFor('Breach')).toBe('->*');
  });

  test('the graph route: nodes repeated, the expression kept, the endpoint only when remote', () => {
    const route = parseHash('#/graph?nodes=Adobe&nodes=%20dataClass%2Fpasswords%20&nodes=Adobe&property=%3C-dataClass&endpoint=remote&text=x');
    expect(route.graph).toEqual({ nodes: ['Adobe', 'dataClass/passwords'], property: '<-dataClass', endpoint: 'remote' });
    expect(route.filters.text).toBe('x');
    expect(formatHash(route)).toBe('#/graph?nodes=Adobe&nodes=dataClass%2Fpasswords&property=%3C-dataClass&endpoint=remote&text=x');
    expect(parseHash('#/graph')).toMatchObject({ screen: 'graph', graph: { nodes: [], property: '->*', endpoint: 'embedded' } });
    expect(formatHash(parseHash('#/graph?endpoint=elsewhere'))).toBe('#/graph');
    // Other screens neither read nor write it.
    expect(parseHash('#/overview?nodes=Adobe').graph).toBeUndefined();
    expect(formatHash({ ...route, screen: 'overview' })).toBe('#/overview?text=x');
  });

  test('pages merge by concatenation and rows keep the answer’s order', () => {
    const first: NodeResponse = { data: { A: { arcs: { dataClass: { nodes: [{ dcid: 'dataClass/a' }] } } }, B: {} }, nextToken: 't1' };
    const second: NodeResponse = { data: { A: { arcs: { dataClass: { nodes: [{ dcid: 'dataClass/b' }] }, name: { nodes: [{ value: 'A', provenanceId: 'p' }] } } }, B: {} } };
    const merged = mergePage(mergePage(undefined, first), second);
    expect(merged.nextToken).toBeUndefined();
    expect(merged.data.A?.arcs?.dataClass?.nodes.map((n) => n.dcid)).toEqual(['dataClass/a', 'dataClass/b']);
    const rows = rowsOf(merged, ['A', 'B'], 'out');
    expect(rows.map((r) => [r.subject, r.kind, r.target ?? r.value ?? ''])).toEqual([
      ['A', 'node', 'dataClass/a'],
      ['A', 'node', 'dataClass/b'],
      ['A', 'literal', 'A'],
      ['B', 'none', ''],
    ]);
  });

  test('the drawing merges nodes across answers and keeps the arcs’ real direction', () => {
    const graph = buildGraph(
      [
        {
          nodes: ['Adobe'],
          direction: 'out',
          response: { data: { Adobe: { arcs: { dataClass: { nodes: [{ dcid: 'dataClass/passwords', name: 'Passwords', types: ['DataClass'] }] }, name: { nodes: [{ value: 'Adobe' }] } } } } },
        },
        {
          nodes: ['dataClass/passwords'],
          direction: 'in',
          response: { data: { 'dataClass/passwords': { arcs: { dataClass: { nodes: [{ dcid: 'Adobe' }, { dcid: 'LinkedIn', types: ['Breach'] }] } } } } },
        },
      ],
      { literals: false, maxNodes: 100 },
    );
    expect(graph.nodes.map((n) => [n.id, n.kind, n.label])).toEqual([
      ['Adobe', 'other', 'Adobe'],
      ['dataClass/passwords', 'DataClass', 'Passwords'],
      ['LinkedIn', 'Breach', 'LinkedIn'],
    ]);
    expect(graph.edges.map((e) => `${e.source} -${e.label}-> ${e.target}`)).toEqual(['Adobe -dataClass-> dataClass/passwords', 'LinkedIn -dataClass-> dataClass/passwords']);
    expect(buildGraph([{ nodes: ['A', 'B', 'C'], direction: 'out', response: { data: {} } }], { literals: true, maxNodes: 2 }).omitted).toBe(1);
  });

  test('a node with many neighbours draws a page of them and groups the rest', () => {
    const items = Array.from({ length: 30 }, (_, i) => ({ dcid: `B${String(i).padStart(2, '0')}`, types: ['Breach'] }));
    const queries = [{ nodes: ['dataClass/passwords'], direction: 'in' as const, response: { data: { 'dataClass/passwords': { arcs: { dataClass: { nodes: items } } } } } }];
    const first = buildGraph(queries, { literals: false, maxNodes: 600, groupLimit: 12 });
    const key = 'dataClass/passwords\u0000in\u0000dataClass';
    expect(first.groups).toEqual([{ key, subject: 'dataClass/passwords', subjectLabel: 'Passwords', arc: 'dataClass', direction: 'in', noun: 'breaches', shown: 12, hidden: 18 }]);
    expect(first.grouped).toBe(18);
    // The subject, its first 12 neighbours, and one "+18 more" node linked like the rest.
    expect(first.nodes.map((n) => n.id)).toEqual(['dataClass/passwords', ...items.slice(0, 12).map((i) => i.dcid), groupNodeId(key)]);
    expect(first.nodes.at(-1)).toEqual({ id: groupNodeId(key), label: '+18 more breaches', kind: 'group', expandable: false });
    expect(first.edges.at(-1)).toMatchObject({ source: groupNodeId(key), target: 'dataClass/passwords' });
    // Paging the group draws the next ones; a last page leaves no group.
    const second = buildGraph(queries, { literals: false, maxNodes: 600, groupLimit: 12, shown: new Map([[key, 24]]) });
    expect(second.nodes).toHaveLength(1 + 24 + 1);
    expect(second.grouped).toBe(6);
    const all = buildGraph(queries, { literals: false, maxNodes: 600, groupLimit: 12, shown: new Map([[key, 36]]) });
    expect(all.groups).toEqual([]);
    expect(all.nodes).toHaveLength(31);
    // Nodes without a name in the answers are labelled in words rather than by id.
    expect(readableLabel('dataClass/email-addresses')).toBe('Email addresses');
    expect(readableLabel('domain/adobe.com')).toBe('adobe.com');
    expect(readableLabel('Adobe')).toBe('Adobe');
  });

  test('presets are plain questions over the same expression grammar', () => {
    for (const preset of GRAPH_PRESETS) expect(parseExpression(preset.property).ok, preset.property).toBe(true);
    expect(presetsFor(['Adobe']).map((p) => p.label)).toEqual([
      'Everything about this breach',
      'The data this breach exposed',
      'Other breaches that exposed the same data',
      'Other breaches of the same domain',
    ]);
    expect(presetsFor(['dataClass/passwords']).map((p) => p.property)).toEqual(['<-dataClass', '->*']);
    expect(presetsFor(['dataClass/passwords', 'domain/adobe.com']).map((p) => p.property)).toEqual(['->*']);
    expect(presetOf(' -> * ', presetsFor(['Adobe']))?.label).toBe('Everything about this breach');
    // A two-step question is never inferred from its first step's text.
    expect(presetOf('->dataClass', presetsFor(['Adobe']))?.label).toBe('The data this breach exposed');
    expect(presetOf('->name', presetsFor(['Adobe']))).toBeUndefined();
  });

  test('expressions are described in words', () => {
    const words = (text: string) => {
      const parsed = parseExpression(text);
      if (!parsed.ok) throw new Error(parsed.error.message);
      return describeExpression(parsed.ast);
    };
    expect(words('->*')).toBe('Every outgoing arc with its values.');
    expect(words('<-dataClass')).toBe('The incoming dataClass values.');
    expect(words('<-typeOf+{typeOf:Breach}')).toBe('Nodes reached over one or more incoming typeOf arcs, only those with typeOf Breach.');
  });
});

describe('graph pane', () => {
  test('“Other breaches that exposed the same data” asks the data classes, then each one’s breaches', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: graphHash(['Adobe'], '->*') });
    await screen.findByRole('region', { name: 'Everything about this breach: Adobe' });
    const question = screen.getByRole('radio', { name: 'Other breaches that exposed the same data' });
    // Arrow keys move between the questions, as in any radio group.
    screen.getByRole('radio', { name: 'Everything about this breach' }).focus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(question).toBeChecked();
    expect(question).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Run query' }));

    expect(window.location.hash).toBe(graphHash(['Adobe'], '->dataClass'));
    const root = await screen.findByRole('region', { name: 'The data this breach exposed: Adobe' });
    const classes = targets(answerOf(core, ['Adobe'], '->dataClass'), 'Adobe', 'dataClass');
    await waitFor(() => expect(tableNodes(root)).toEqual(classes));
    // Every data class expanded through the store, as a click on it would.
    for (const dataClass of classes) {
      // "Other" breaches: the engine's answer without Adobe itself.
      const region = await screen.findByRole('region', { name: `Other breaches that exposed ${readableLabel(dataClass)}` });
      await waitFor(() => expect(tableNodes(region)).toEqual(targets(answerOf(core, [dataClass], '<-dataClass'), dataClass, 'dataClass').filter((id) => id !== 'Adobe')));
      expect(
        within(region)
          .getAllByRole('columnheader')
          .map((header) => header.textContent),
      ).toEqual(['Data class', 'Relation', 'Breach']);
    }
    expect(screen.getByRole('radio', { name: 'Other breaches that exposed the same data' })).toBeChecked();
    expect(screen.getByText('Advanced: relation expression').closest('details')).not.toHaveAttribute('open');
    await expectAccessible();
  });

  test('an expression no question stands for opens “Advanced” with it', async () => {
    renderApp({ hash: graphHash(['Adobe'], '->name') });
    expect(await screen.findByRole('textbox', { name: 'Relation expression' })).toHaveValue('->name');
    expect(screen.getByText('Advanced: relation expression').closest('details')).toHaveAttribute('open');
    const questions = screen.getByRole('group', { name: 'What do you want to see?' });
    expect(within(questions).getAllByRole('radio')).toHaveLength(4);
    for (const radio of within(questions).getAllByRole('radio')) expect(radio).not.toBeChecked();
    expect(screen.getByText(/Your own expression is in use/)).toBeInTheDocument();
  });

  test('from a breach to its data classes, then to the other breaches sharing one', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/breaches/Adobe' });
    await user.click(await screen.findByRole('button', { name: 'Explore in graph' }));

    expect(window.location.hash).toBe(graphHash(['Adobe'], '->*'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Graph' })).toBeInTheDocument();
    expect(document.title).toBe('Graph · Breach Monitor');
    expect(screen.getByRole('link', { name: 'Graph' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('textbox', { name: 'Start nodes' })).toHaveValue('Adobe');
    expect(screen.getByRole('textbox', { name: 'Relation expression' })).toHaveValue('->*');
    expect(screen.getByRole('radio', { name: 'Everything about this breach' })).toBeChecked();

    const root = await screen.findByRole('region', { name: 'Everything about this breach: Adobe' });
    await waitFor(() => expect(within(root).getByRole('table')).toBeInTheDocument());
    const adobe = answerOf(core, ['Adobe'], '->*');
    const classes = targets(adobe, 'Adobe', 'dataClass');
    expect(classes).toEqual(['dataClass/email-addresses', 'dataClass/password-hints', 'dataClass/passwords', 'dataClass/usernames']);
    expect(tableTargets(root)).toEqual([...classes, 'domain/adobe.com', 'Breach']);
    expect(within(root).getByRole('row', { name: /breached on.*2013-10-04/ })).toBeInTheDocument();
    expect(within(root).getByText('from the embedded engine', { exact: false })).toBeInTheDocument();
    expect(screen.getByText('The drawing isn’t available here; the tables below hold every answer.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Have I Been Pwned/ })).toBeInTheDocument();
    await expectAccessible();

    // Keyboard: the table's button, and focus follows to the answer.
    within(root).getByRole('button', { name: 'Expand dataClass/passwords' }).focus();
    await user.keyboard('{Enter}');
    const shared = await screen.findByRole('region', { name: 'Breaches that exposed Passwords' });
    await waitFor(() => expect(within(shared).getByRole('table')).toBeInTheDocument());
    expect(within(shared).getByRole('heading', { level: 3 })).toHaveFocus();
    const sharing = targets(answerOf(core, ['dataClass/passwords'], '<-dataClass'), 'dataClass/passwords', 'dataClass');
    expect(sharing).toEqual(['Adobe', 'AdultSite', 'Canva', 'LinkedIn']);
    expect(tableNodes(shared)).toEqual(sharing);
    // Adobe's own arcs are on the pane already.
    expect(tableTargets(shared)).toEqual(sharing.filter((id) => id !== 'Adobe'));
    expect(within(root).queryByRole('button', { name: 'Expand dataClass/passwords' })).toBeNull();
    expect(core.callsOf('graph-query')).toContainEqual({ nodes: ['dataClass/passwords'], property: '<-dataClass', endpoint: 'embedded', maxPages: 1 });

    // One more hop: another breach's own arcs.
    await user.click(within(shared).getByRole('button', { name: 'Expand LinkedIn' }));
    const linkedIn = await screen.findByRole('region', { name: 'Everything about LinkedIn' });
    await waitFor(() => expect(tableTargets(linkedIn)).toContain('domain/linkedin.com'));
    await expectAccessible();

    // Removing an expansion takes its answers away and offers the expansion again.
    await user.click(within(linkedIn).getByRole('button', { name: 'Remove' }));
    expect(screen.queryByRole('region', { name: 'Everything about LinkedIn' })).toBeNull();
    expect(within(shared).getByRole('button', { name: 'Expand LinkedIn' })).toBeInTheDocument();
  });

  test('the controls and the text stay in step, and a bad expression says where', async () => {
    const user = userEvent.setup();
    renderApp({ hash: graphHash(['Adobe'], '->*') });
    // A preset's expression: the editor waits, closed, under "Advanced".
    const advanced = (await screen.findByText('Advanced: relation expression')).closest('details')!;
    expect(advanced).not.toHaveAttribute('open');
    await user.click(screen.getByText('Advanced: relation expression'));
    expect(advanced).toHaveAttribute('open');
    const text = await screen.findByRole('textbox', { name: 'Relation expression' });
    const label = screen.getByRole('combobox', { name: 'Label' });
    const repeat = screen.getByRole('checkbox', { name: 'Follow repeatedly (+)' });
    const type = screen.getByRole('combobox', { name: 'Type filter' });
    expect(repeat).toBeDisabled();
    expect(type).toBeDisabled();
    expect(text).toHaveAccessibleDescription('Every outgoing arc with its values.');

    await user.click(screen.getByRole('radio', { name: 'Incoming' }));
    expect(text).toHaveValue('<-*');
    await user.selectOptions(label, 'dataClass');
    expect(text).toHaveValue('<-dataClass');
    expect(repeat).toBeEnabled();
    await user.click(repeat);
    expect(text).toHaveValue('<-dataClass+');
    await user.selectOptions(type, 'Breach');
    expect(text).toHaveValue('<-dataClass+{typeOf:Breach}');
    await user.selectOptions(label, 'Several labels (list)');
    expect(text).toHaveValue('<-[dataClass]');
    await user.click(screen.getByRole('checkbox', { name: 'name' }));
    expect(text).toHaveValue('<-[name, dataClass]');
    await user.selectOptions(label, 'Labels only');
    expect(text).toHaveValue('<-');

    // Typing moves the controls when it parses…
    await user.clear(text);
    await user.type(text, '->domain');
    expect(screen.getByRole('radio', { name: 'Outgoing' })).toBeChecked();
    expect(label).toHaveValue('domain');
    // …and when it does not, the parser's message with its position, and no running.
    await user.clear(text);
    await user.type(text, '->na me');
    expect(text).toHaveAttribute('aria-invalid', 'true');
    expect(text).toHaveAccessibleDescription(/expected alternating arrows and properties at position 5/);
    expect(screen.getByRole('button', { name: 'Run query' })).toBeDisabled();
    // The controls keep the last text that parsed ("->na", typed on the way).
    expect(label).toHaveValue('na');
    await expectAccessible();

    await user.clear(text);
    await user.type(text, '<-typeOf{{typeOf:Breach}');
    expect(text).not.toHaveAttribute('aria-invalid');
    expect(type).toHaveValue('Breach');
  });

  test('Run query puts the query in the address; a reload asks it again', async () => {
    const user = userEvent.setup();
    const { core, unmount } = renderApp({ hash: '#/graph' });
    expect(await screen.findByRole('heading', { name: 'Start from a breach, a domain or a data class' })).toBeInTheDocument();
    expect(core.callsOf('graph-query')).toEqual([]);
    await expectAccessible();

    await user.click(screen.getByRole('button', { name: 'Run query' }));
    expect(screen.getByRole('textbox', { name: 'Start nodes' })).toHaveAccessibleDescription(/Add at least one start node/);

    // The picker turns names into node ids.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Start from' }), 'Data class');
    await user.type(screen.getByRole('combobox', { name: 'Data class' }), 'Email addresses');
    await user.click(screen.getByRole('button', { name: 'Add start node' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Start from' }), 'Domain');
    await user.type(screen.getByRole('combobox', { name: 'Domain' }), 'Canva.com{Enter}');
    expect(screen.getByRole('textbox', { name: 'Start nodes' })).toHaveValue('dataClass/email-addresses, domain/canva.com');

    const text = screen.getByRole('textbox', { name: 'Relation expression' });
    await user.clear(text);
    await user.type(text, '<- dataClass');
    await user.click(screen.getByRole('button', { name: 'Run query' }));
    // The address holds the canonical text.
    expect(window.location.hash).toBe(graphHash(['dataClass/email-addresses', 'domain/canva.com'], '<-dataClass'));
    const region = await screen.findByRole('region', { name: 'dataClass/email-addresses, domain/canva.com <-dataClass' });
    await waitFor(() => expect(tableTargets(region)).toEqual(['Adobe', 'AdultSite', 'Canva', 'LinkedIn']));
    // domain/canva.com has no incoming dataClass arcs: said, not left out.
    expect(within(region).getByRole('row', { name: /domain\/canva\.com.*Nothing to answer/ })).toBeInTheDocument();

    unmount();
    const again = renderApp({ core, hash: window.location.hash });
    expect(await screen.findByRole('region', { name: 'dataClass/email-addresses, domain/canva.com <-dataClass' })).toBeInTheDocument();
    await waitFor(() => expect(again.core.callsOf('graph-query')).toHaveLength(2));
    expect(screen.getByRole('textbox', { name: 'Start nodes' })).toHaveValue('dataClass/email-addresses, domain/canva.com');
  });

  test('Load more streams the next pages with progress', async () => {
    const user = userEvent.setup();
    const core = new FakeCore();
    core.graphPageSize = 1;
    renderApp({ core, hash: graphHash(['Breach'], '<-typeOf') });
    const region = await screen.findByRole('region', { name: 'Every one of this type: Breach' });
    await waitFor(() => expect(tableTargets(region)).toEqual(['Adobe']));
    expect(within(region).getByRole('status')).toHaveTextContent('More values are available.');

    const release = core.hold('graph-query');
    await user.click(within(region).getByRole('button', { name: 'Load more' }));
    expect(within(region).getByRole('status')).toHaveTextContent('Loaded 1 page…');
    expect(within(region).getByRole('button', { name: 'Stop' })).toBeInTheDocument();
    release();
    await waitFor(() => expect(tableTargets(region)).toEqual(['Adobe', 'AdultSite', 'Canva', 'LinkedIn']));
    await waitFor(() => expect(within(region).getByRole('status')).toHaveTextContent('Loaded 4 pages, every value.'));
    expect(within(region).queryByRole('button', { name: 'Load more' })).toBeNull();
    const calls = core.callsOf('graph-query') as { nextToken?: string }[];
    expect(calls).toHaveLength(4);
    expect(calls.slice(1).every((call) => typeof call.nextToken === 'string')).toBe(true);
    await expectAccessible();
  });

  test('the remote endpoint: key never shown, saved answers when it is unreachable', async () => {
    const user = userEvent.setup();
    const core = new FakeCore();
    renderApp({ core, hash: graphHash(['Adobe'], '->dataClass') });
    await screen.findByRole('region', { name: 'The data this breach exposed: Adobe' });

    await user.click(screen.getByRole('radio', { name: /Remote endpoint/ }));
    const form = screen.getByRole('form', { name: 'Remote endpoint' });
    const url = within(form).getByRole('textbox', { name: 'Endpoint URL' });
    await user.type(url, 'ftp://graph.example');
    await user.click(within(form).getByRole('button', { name: 'Save endpoint' }));
    expect(url).toHaveAccessibleDescription(/must start with http/);
    expect(core.callsOf('graph-remote-set')).toEqual([]);

    await user.clear(url);
    await user.type(url, 'https://graph.example');
    const key = within(form).getByLabelText('API key');
    expect(key).toHaveAttribute('type', 'password');
    await user.type(key, 'sekret');
    await user.click(within(form).getByRole('button', { name: 'Save endpoint' }));
    expect(await within(form).findByText('Endpoint saved.')).toBeInTheDocument();
    expect(core.callsOf('graph-remote-set')).toEqual([{ url: 'https://graph.example', apiKey: 'sekret' }]);
    expect(key).toHaveValue('');
    expect(key).toHaveAccessibleDescription(/Key saved/);
    await expectAccessible();

    await user.click(screen.getByRole('button', { name: 'Run query' }));
    expect(window.location.hash).toBe(graphHash(['Adobe'], '->dataClass', '&endpoint=remote'));
    const remote = await screen.findByRole('region', { name: 'The data this breach exposed: Adobe' });
    await waitFor(() => expect(within(remote).getByText('from the remote endpoint', { exact: false })).toBeInTheDocument());

    core.graphRemoteBehaviour = 'unreachable';
    await user.click(screen.getByRole('button', { name: 'Run query' }));
    expect(await screen.findByText(/The remote endpoint isn’t answering \(https:\/\/graph\.example could not be reached\)/)).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'The data this breach exposed: Adobe' })).getByText('from the saved answer', { exact: false })).toBeInTheDocument());

    // Nothing saved for this one: an error with a way forward.
    const text = screen.getByRole('textbox', { name: 'Relation expression' });
    await user.clear(text);
    await user.type(text, '->name');
    await user.click(screen.getByRole('button', { name: 'Run query' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('could not be reached');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  test('invented breaches are labelled on the page and on each answer, never credited to Have I Been Pwned', async () => {
    const core = new FakeCore();
    core.checks = { ...UNKNOWN_CHECKS, source: 'demo', updatedAt: '2026-01-01T00:00:00Z' };
    renderApp({ core, hash: graphHash(['Adobe'], '->dataClass') });
    const root = await screen.findByRole('region', { name: 'The data this breach exposed: Adobe' });
    await waitFor(() => expect(within(root).getByRole('table')).toBeInTheDocument());
    expect(screen.getByText('Demo data — these breaches are invented.')).toBeInTheDocument();
    expect(within(root).getByText('Demo data (invented)')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Have I Been Pwned/ })).toBeNull();
    expect(screen.queryByText(/CC BY 4\.0/)).toBeNull();
    await expectAccessible();
  });

  test('Have I Been Pwned’s breaches are credited and not labelled; a remote endpoint’s answers claim neither', async () => {
    const user = userEvent.setup();
    const core = new FakeCore();
    core.checks = { ...UNKNOWN_CHECKS, source: 'hibp', updatedAt: '2026-01-01T00:00:00Z' };
    core.graphRemoteUrl = 'https://graph.example';
    core.graphKeys.set('https://graph.example', 'sekret');
    renderApp({ core, hash: graphHash(['Adobe'], '->dataClass') });
    const root = await screen.findByRole('region', { name: 'The data this breach exposed: Adobe' });
    await waitFor(() => expect(within(root).getByRole('table')).toBeInTheDocument());
    expect(screen.getByRole('link', { name: /Have I Been Pwned/ })).toBeInTheDocument();
    expect(screen.queryByText('Demo data — these breaches are invented.')).toBeNull();
    expect(within(root).queryByText('Demo data (invented)')).toBeNull();

    await user.click(screen.getByRole('radio', { name: /Remote endpoint/ }));
    await user.click(screen.getByRole('button', { name: 'Run query' }));
    const remote = await screen.findByRole('region', { name: 'The data this breach exposed: Adobe' });
    await waitFor(() => expect(within(remote).getByText('from the remote endpoint', { exact: false })).toBeInTheDocument());
    expect(screen.queryByRole('link', { name: /Have I Been Pwned/ })).toBeNull();
    expect(screen.getByText(/Answers from the remote endpoint are its own data/)).toBeInTheDocument();
  });

  test('the engine’s refusal is shown as it says it', async () => {
    renderApp({ hash: graphHash(['Adobe'], '->dataClass->name') });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This query didn’t get an answer');
    expect(alert).toHaveTextContent('one arrow per expression');
    await expectAccessible();
  });

  test('the nav link brings back the last query', async () => {
    const user = userEvent.setup();
    renderApp({ hash: graphHash(['Canva'], '->domain') });
    await screen.findByRole('region', { name: 'Canva ->domain' });
    await user.click(screen.getByRole('link', { name: 'Overview' }));
    await screen.findByRole('heading', { level: 1, name: 'Overview' });
    expect(screen.getByRole('link', { name: 'Graph' })).toHaveAttribute('href', graphHash(['Canva'], '->domain'));
  });
});
