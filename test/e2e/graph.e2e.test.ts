// The graph pane end to end: Debian Chromium on the browser host, the real core with its
// embedded graph engine, the real reference service (its OpenID provider, its breaches, and its
// own /v2/node as the remote endpoint). One session, step by step: sign in, open a breach,
// "Explore in graph", expand to its data classes, then to the other breaches sharing one; every
// answer on screen is checked against the engine's own answer to the same query.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { readableLabel } from '../../renderer/features/graph/model.ts';
import { DEV_GRAPH_KEY } from '../../server/app.ts';
import type { NodeResponse } from '../../shared/graph/response.ts';
import { captureScreen, E2E, ensureRendererBuilt, eventually, launchChromium, seriousFindings, settle, unnamedControls, until } from './harness.ts';

function targets(response: NodeResponse, node: string, arc: string): string[] {
  return (response.data[node]?.arcs?.[arc]?.nodes ?? []).flatMap((item) => (item.dcid ? [item.dcid] : []));
}

/**
 * Where the drawing painted nodes of one colour (a `--graph-*` property), in page coordinates:
 * what a person clicking "an orange circle" aims at. Runs as page source, outside this
 * project's Node-only types.
 */
async function paintedSpots(page: Page, property: string): Promise<{ x: number; y: number }[]> {
  return page.evaluate(`(() => {
    // The property holds light-dark(…): the browser resolves it where it is used.
    const probe = document.createElement('span');
    probe.hidden = true;
    document.body.appendChild(probe);
    probe.style.color = 'var(' + ${JSON.stringify(property)} + ')';
    const want = getComputedStyle(probe).color.replace(/[^0-9,]/g, '').split(',').slice(0, 3).map(Number);
    probe.remove();
    const spots = [];
    for (const canvas of document.querySelectorAll('.graph-canvas canvas')) {
      const rect = canvas.getBoundingClientRect();
      if (!canvas.width || !rect.width) continue;
      const scale = canvas.width / rect.width;
      const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      for (let y = 0; y < canvas.height; y += 2)
        for (let x = 0; x < canvas.width; x += 2) {
          const i = (y * canvas.width + x) * 4;
          if (pixels[i + 3] !== 255 || want.some((v, k) => Math.abs(pixels[i + k] - v) > 2)) continue;
          const at = { x: rect.left + x / scale, y: rect.top + y / scale };
          if (!spots.some((s) => Math.hypot(s.x - at.x, s.y - at.y) < 14)) spots.push(at);
        }
    }
    return spots;
  })()`);
}

/** The expression editor sits under the "Advanced" disclosure: open it unless it is open. */
async function openAdvanced(page: Page): Promise<void> {
  const details = page.locator('details.graph-advanced');
  if ((await details.getAttribute('open')) === null) await details.getByText('Advanced: relation expression').click();
  await page.getByRole('textbox', { name: 'Relation expression' }).waitFor();
}

/** The linked nodes an answer's table lists (expandable or already expanded), in order. */
async function tableNodes(region: Locator): Promise<string[]> {
  return region.locator('table tbody td .graph-target-text code').allTextContents();
}

describe('the graph pane in Chromium against the real stack', { timeout: 60_000 }, () => {
  let browser: Browser;
  let e2e: E2E;
  let page: Page;
  /** The breach the person starts from, and a data class of it that another breach shares. */
  let start: { breach: string; dataClass: string; sharing: string[] };

  beforeAll(async () => {
    ensureRendererBuilt();
    browser = await launchChromium();
    e2e = new E2E({ browser, email: 'alice@example.com' });
    await e2e.startService();
    await e2e.startApp();
    page = await e2e.openApp();
  }, 90_000);

  afterAll(async () => {
    await e2e?.close();
    await browser?.close();
  });

  it('signs in and syncs the person’s breaches into the embedded graph', async () => {
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 20_000 });
    expect(await e2e.signInsFinished()).toHaveLength(1);
    const remote = await e2e.serviceBreaches({ includeSensitive: true });
    expect(remote.length).toBeGreaterThan(1);
    await eventually('the first sync', async () => (await e2e.call('breaches-list', { includeSensitive: true })).total === remote.length);

    // The engine's graph is rebuilt after the sync: wait until it has every breach the one
    // sensitive policy shows (sensitive ones only once the person opts in).
    const shown = remote.filter((item) => !item.breach.isSensitive);
    const breaches = await eventually('the graph to hold the synced breaches', async () => {
      const answer = await e2e.call('graph-query', { nodes: ['Breach'], property: '<-typeOf', maxPages: 100 });
      const ids = targets(answer.response, 'Breach', 'typeOf');
      return ids.length === shown.length ? ids : undefined;
    });

    // A breach the list shows by default, with a data class another breach exposed too.
    const listed = (await e2e.call('breaches-list', {})).rows.map((row) => row.breach.id);
    for (const breach of listed) {
      const classes = targets((await e2e.call('graph-query', { nodes: [breach], property: '->dataClass' })).response, breach, 'dataClass');
      for (const dataClass of classes) {
        const sharing = targets((await e2e.call('graph-query', { nodes: [dataClass], property: '<-dataClass', maxPages: 100 })).response, dataClass, 'dataClass');
        if (sharing.some((id) => id !== breach)) {
          start = { breach, dataClass, sharing };
          break;
        }
      }
      if (start) break;
    }
    expect(start, `no two of ${breaches.join(', ')} share a data class`).toBeDefined();
  });

  it('opens the pane from a breach with “Explore in graph”', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Breaches', exact: true }).click();
    await page.getByRole('searchbox').fill(start.breach);
    await page
      .getByRole('listbox', { name: 'Breaches' })
      .getByRole('option', { name: new RegExp(`^${start.breach},`) })
      .click();
    await page.getByRole('heading', { level: 2, name: start.breach, exact: true }).waitFor();
    await page.getByRole('button', { name: 'Explore in graph' }).click();

    await page.getByRole('heading', { level: 1, name: 'Graph' }).waitFor();
    const hash = new URL(page.url()).hash;
    expect(hash.startsWith('#/graph?')).toBe(true);
    const params = new URLSearchParams(hash.slice(hash.indexOf('?') + 1));
    expect(params.getAll('nodes')).toEqual([start.breach]);
    expect(params.get('property')).toBe('->*');
    // Once answered (and before a click elsewhere scrolls the pane), the drawing is in view without scrolling for it.
    const drawing = page.getByRole('region', { name: 'Drawing', exact: true });
    await until('the drawing to be scrolled into view', async () => {
      const box = await drawing.boundingBox();
      const viewport = page.viewportSize();
      if (!box || !viewport || box.y < 0 || box.y > viewport.height / 2) throw new Error(`drawing at ${JSON.stringify(box)} in ${JSON.stringify(viewport)}`);
    });
    expect(await page.getByRole('textbox', { name: 'Start nodes' }).inputValue()).toBe(start.breach);
    // The question in plain words; its expression is under "Advanced".
    expect(await page.getByRole('radio', { name: 'Everything about this breach' }).isChecked()).toBe(true);
    await openAdvanced(page);
    expect(await page.getByRole('textbox', { name: 'Relation expression' }).inputValue()).toBe('->*');
  });

  it('expands the breach to its data classes: the table lists the engine’s answer', async () => {
    const region = page.getByRole('region', { name: `Everything about this breach: ${start.breach}`, exact: true });
    await region.getByRole('table').waitFor();
    const engine = await e2e.call('graph-query', { nodes: [start.breach], property: '->*', maxPages: 100 });
    const classes = targets(engine.response, start.breach, 'dataClass');
    expect(classes).toContain(start.dataClass);
    const shown = await tableNodes(region);
    // Every data class node, in the engine's order, among the breach's other links.
    expect(shown.filter((id) => id.startsWith('dataClass/'))).toEqual(classes);
    expect(shown).toEqual(Object.values(engine.response.data[start.breach]?.arcs ?? {}).flatMap((arc) => arc.nodes.flatMap((item) => (item.dcid ? [item.dcid] : []))));
    for (const dataClass of classes) expect(await region.getByRole('button', { name: `Expand ${dataClass}`, exact: true }).count()).toBe(1);

    // The drawing: cytoscape's canvases, drawn under the app's CSP without a complaint.
    const drawing = page.getByRole('img', { name: /^Graph of \d+ nodes/ });
    await drawing.waitFor();
    await eventually('the drawing’s canvases', async () => (await drawing.locator('canvas').count()) > 0);
    const label = (await drawing.getAttribute('aria-label')) ?? '';
    expect(Number(/^Graph of (\d+) nodes/.exec(label)?.[1])).toBe(1 + new Set(shown).size);

    // The top of the pane (the query form and the endpoint), in both themes.
    await page.getByRole('heading', { level: 1, name: 'Graph' }).evaluate((heading) => {
      heading.closest('main')!.scrollTop = 0;
    });
    await settle(page);
    const audits = await captureScreen(page, 'graph-query');
    expect(seriousFindings(audits)).toEqual([]);
    expect(e2e.pageErrors).toEqual([]);
  });

  it('expands a data class to the other breaches that share it', async () => {
    const root = page.getByRole('region', { name: `Everything about this breach: ${start.breach}`, exact: true });
    await root.getByRole('button', { name: `Expand ${start.dataClass}`, exact: true }).click();
    const region = page.getByRole('region', { name: `Breaches that exposed ${readableLabel(start.dataClass)}`, exact: true });
    await region.getByRole('table').waitFor();
    // Focus follows to the answer, for keyboard and screen reader users.
    expect(await region.getByRole('heading', { level: 3 }).evaluate((heading) => heading === heading.ownerDocument.activeElement)).toBe(true);

    const engine = await e2e.call('graph-query', { nodes: [start.dataClass], property: '<-dataClass', maxPages: 100 });
    const sharing = targets(engine.response, start.dataClass, 'dataClass');
    expect(sharing).toEqual(start.sharing);
    expect(await tableNodes(region)).toEqual(sharing);
    const others = sharing.filter((id) => id !== start.breach);
    expect(others.length).toBeGreaterThan(0);
    // The start breach is expanded already; every other one offers its own expansion.
    for (const other of others) expect(await region.getByRole('button', { name: `Expand ${other}`, exact: true }).count()).toBe(1);
    expect(await region.getByRole('button', { name: `Expand ${start.breach}`, exact: true }).count()).toBe(0);
    expect(await root.getByRole('button', { name: `Expand ${start.dataClass}`, exact: true }).count()).toBe(0);

    // One more hop, to another breach's own links: it lists the shared data class too.
    const other = others[0]!;
    await region.getByRole('button', { name: `Expand ${other}`, exact: true }).click();
    const next = page.getByRole('region', { name: `Everything about ${other}`, exact: true });
    await next.getByRole('table').waitFor();
    expect(await tableNodes(next)).toContain(start.dataClass);

    await until('the drawing to hold every node', async () => {
      const label = (await page.getByRole('img', { name: /^Graph of \d+ nodes/ }).getAttribute('aria-label')) ?? '';
      const nodes = new Set([start.breach, ...(await tableNodes(root)), ...(await tableNodes(region)), ...(await tableNodes(next))]);
      if (Number(/^Graph of (\d+) nodes/.exec(label)?.[1]) !== nodes.size) throw new Error(`${label} for ${nodes.size} nodes`);
    });
    // The screenshots show the drawing and the first answers rather than wherever focus went.
    await page.getByRole('region', { name: 'Drawing', exact: true }).evaluate((section) => {
      const main = section.closest('main')!;
      main.scrollTop += section.getBoundingClientRect().top - main.getBoundingClientRect().top - 16;
    });
    await settle(page);
    const audits = await captureScreen(page, 'graph');
    expect(seriousFindings(audits)).toEqual([]);
    expect(await unnamedControls(page)).toEqual([]);
    expect(e2e.pageErrors).toEqual([]);
  });

  it('a click on a data class in the drawing expands it too', async () => {
    // Expansions carry the node they expand (their titles are in words).
    const expansions = page.locator('section.graph-block[data-origin="expand"]');
    const before = await expansions.count();
    const expanded = new Set(await expansions.evaluateAll((regions) => regions.map((r) => r.getAttribute('aria-labelledby'))));
    const spots = await paintedSpots(page, '--graph-dataclass');
    expect(spots.length).toBeGreaterThan(1);
    // Some data classes are expanded already (a click on one changes nothing): try them in turn.
    for (const spot of spots) {
      await page.mouse.click(spot.x, spot.y);
      if ((await expansions.count()) > before) break;
    }
    const fresh = page.locator('section.graph-block[data-origin="expand"][data-node^="dataClass/"]');
    const regions = await fresh.evaluateAll((all) => all.map((r) => r.getAttribute('aria-labelledby')));
    const added = regions.findIndex((id) => !expanded.has(id));
    expect(added).toBeGreaterThanOrEqual(0);
    const region = fresh.nth(added);
    await region.getByRole('table').waitFor();
    const name = (await region.getAttribute('data-node')) ?? '';
    expect(await region.getByRole('heading', { level: 3 }).textContent()).toBe(`Breaches that exposed ${readableLabel(name)}`);
    const engine = await e2e.call('graph-query', { nodes: [name], property: '<-dataClass', maxPages: 100 });
    expect(await tableNodes(region)).toEqual(targets(engine.response, name, 'dataClass'));
    expect(e2e.pageErrors).toEqual([]);
  });

  it('“Other breaches that exposed the same data” asks each data class’s breaches, as the engine answers', async () => {
    await page.getByRole('radio', { name: 'Other breaches that exposed the same data' }).check();
    expect(await page.getByRole('textbox', { name: 'Relation expression' }).inputValue()).toBe('->dataClass');
    await page.getByRole('button', { name: 'Run query' }).click();
    const root = page.getByRole('region', { name: `The data this breach exposed: ${start.breach}`, exact: true });
    await root.getByRole('table').waitFor();
    const classes = targets((await e2e.call('graph-query', { nodes: [start.breach], property: '->dataClass', maxPages: 100 })).response, start.breach, 'dataClass');
    expect(await tableNodes(root)).toEqual(classes);
    const reached = new Set([start.breach, ...classes]);
    for (const dataClass of classes) {
      // "Other" breaches: the engine's answer without the start breach.
      const region = page.getByRole('region', { name: `Other breaches that exposed ${readableLabel(dataClass)}`, exact: true });
      await region.getByRole('table').waitFor();
      const engine = await e2e.call('graph-query', { nodes: [dataClass], property: '<-dataClass', maxPages: 1 });
      const sharing = targets(engine.response, dataClass, 'dataClass').filter((id) => id !== start.breach);
      expect(await tableNodes(region)).toEqual(sharing);
      for (const id of sharing) reached.add(id);
    }
    // The drawing counts every node, those waiting in "+N more" groups too.
    await until('the drawing to hold the breaches sharing data', async () => {
      const label = (await page.getByRole('img', { name: /^Graph of \d+ nodes/ }).getAttribute('aria-label')) ?? '';
      if (Number(/^Graph of (\d+) nodes/.exec(label)?.[1]) !== reached.size) throw new Error(`${label} for ${reached.size} nodes`);
    });
    // A data class many breaches share draws a page of them and groups the rest; the group's
    // button draws the next page (the demo catalog has such a class).
    const groups = page.getByRole('list', { name: 'Groups in the drawing' });
    const item = groups.getByRole('listitem').first();
    const drawn = async () => Number(/: (\d+) of \d+ /.exec((await item.textContent()) ?? '')?.[1]);
    const before = await drawn();
    expect(before).toBe(12);
    await item.getByRole('button', { name: /^Draw \d+ more / }).click();
    await until('the group to draw its next page', async () => {
      if ((await drawn()) !== 24) throw new Error(`${await item.textContent()}`);
    });
    await until('the drawing to count the same nodes', async () => {
      const label = (await page.getByRole('img', { name: /^Graph of \d+ nodes/ }).getAttribute('aria-label')) ?? '';
      if (Number(/^Graph of (\d+) nodes/.exec(label)?.[1]) !== reached.size) throw new Error(`${label} for ${reached.size} nodes`);
    });
    expect(await unnamedControls(page)).toEqual([]);
    expect(e2e.pageErrors).toEqual([]);
  });

  it('asks the reference service’s own endpoint once it is saved, key and all', async () => {
    await page.getByRole('radio', { name: /Remote endpoint/ }).check();
    const form = page.getByRole('form', { name: 'Remote endpoint' });
    await form.getByRole('textbox', { name: 'Endpoint URL' }).fill(e2e.serviceOrigin);
    await form.getByLabel('API key').fill(DEV_GRAPH_KEY);
    await form.getByRole('button', { name: 'Save endpoint' }).click();
    await form.getByText('Endpoint saved.').waitFor();
    await form.getByText('Key saved', { exact: false }).waitFor();
    expect(await form.getByLabel('API key').inputValue()).toBe('');
    expect(await e2e.call('graph-remote-get', {})).toEqual({ url: e2e.serviceOrigin, hasKey: true });

    await openAdvanced(page);
    const text = page.getByRole('textbox', { name: 'Relation expression' });
    await page.getByRole('textbox', { name: 'Start nodes' }).fill(start.dataClass);
    await text.fill('<-dataClass');
    await page.getByRole('button', { name: 'Run query' }).click();
    expect(new URL(page.url()).hash).toContain('endpoint=remote');
    const region = page.getByRole('region', { name: `Breaches that exposed this data: ${readableLabel(start.dataClass)}`, exact: true });
    await region.getByRole('table').waitFor();
    await region.getByText('from the remote endpoint', { exact: false }).waitFor();
    // The service's graph is its catalog, not only this person's breaches.
    const remote = await e2e.call('graph-query', { nodes: [start.dataClass], property: '<-dataClass', endpoint: 'remote', maxPages: 1 });
    expect(await tableNodes(region)).toEqual(targets(remote.response, start.dataClass, 'dataClass'));
    expect((await tableNodes(region)).length).toBeGreaterThanOrEqual(start.sharing.length);

    // A bad expression never leaves the pane; the parser says where.
    await text.fill('->na me');
    expect(await text.getAttribute('aria-invalid')).toBe('true');
    await page.getByText('expected alternating arrows and properties at position 5').waitFor();
    expect(await page.getByRole('button', { name: 'Run query' }).isDisabled()).toBe(true);
    expect(e2e.pageErrors).toEqual([]);
  });
});
