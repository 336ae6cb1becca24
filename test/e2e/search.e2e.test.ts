// The Search page end to end: Debian Chromium on the browser host, the real core with its
// embedded search engine over the synced breaches (offline), and the real reference service as
// the remote instance (its /client/v4 search interface, an API token kept by the core). Every
// list on screen is checked against the engine's own answer to the same request.
import { mkdirSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { captureScreen, E2E, ensureRendererBuilt, eventually, launchChromium, seriousFindings, unnamedControls, USE_KEYCHAIN } from './harness.ts';

/** What the form says once a token is saved: where the core keeps it (a keychain only when the run has one). */
const SAVED = USE_KEYCHAIN
  ? 'Saved. The API token is kept in your system’s keychain.'
  : 'Saved. The API token is kept only until Breach Monitor quits (no keychain is available), so you will enter it again next time.';

/**
 * A loopback proxy in front of the reference instance that passes a stream's first event (the
 * `chunks` event) at once and holds the rest until `release()`: the reference instance answers
 * in a millisecond, a language model would take seconds, and the page must show the chunks while
 * the answer is still on its way.
 */
async function holdingProxy(target: string) {
  let release!: () => void;
  let held = new Promise<void>((resolve) => (release = resolve));
  const server: Server = createServer((req, res) => {
    // The service answers only its own Host names (421 otherwise), as behind any real proxy.
    const upstream = request(new URL(req.url!, target), { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      if (!(answer.headers['content-type'] ?? '').startsWith('text/event-stream')) return void answer.pipe(res);
      let buffered = '';
      let first = true;
      answer.setEncoding('utf8');
      answer.on('data', (text: string) => {
        if (!first) return void (buffered += text);
        const end = text.indexOf('\n\n');
        if (end < 0) return void res.write(text);
        res.write(text.slice(0, end + 2));
        buffered = text.slice(end + 2);
        first = false;
      });
      answer.on('end', () => void held.then(() => res.end(buffered)));
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    release: () => release(),
    hold: () => void (held = new Promise<void>((resolve) => (release = resolve))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the Search page in Chromium against the real stack', { timeout: 60_000 }, () => {
  let browser: Browser;
  let e2e: E2E;
  let page: Page;
  let domain: string;
  let breachId: string;
  /** The breach's title in the details feed. */
  let title: string;
  let proxy: Awaited<ReturnType<typeof holdingProxy>> | undefined;

  beforeAll(async () => {
    ensureRendererBuilt();
    browser = await launchChromium();
    e2e = new E2E({ browser, email: 'alice@example.com' });
    await e2e.startService();
    await e2e.startApp();
    page = await e2e.openApp();
  }, 90_000);

  afterAll(async () => {
    proxy?.release();
    await proxy?.close();
    await e2e?.close();
    await browser?.close();
  });

  it('signs in and syncs', async () => {
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 20_000 });
    const remote = await e2e.serviceBreaches({ includeSensitive: true });
    await eventually('the first sync', async () => (await e2e.call('breaches-list', { includeSensitive: true })).total === remote.length);
    const first = (await e2e.call('breaches-list', {})).rows.find((row) => row.breach.domain !== '')!;
    breachId = first.breach.id;
    domain = first.breach.domain;
  });

  it('searches offline with the embedded engine: results, then an extractive answer', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Search' }).waitFor();
    expect(await unnamedControls(page)).toEqual([]);
    await page.getByRole('searchbox', { name: 'Search breaches' }).fill(domain);
    await page.getByRole('button', { name: 'Search', exact: true }).click();

    const results = page.getByRole('list', { name: 'Matching breaches' });
    await results.waitFor();
    // The domain in the question is a chip (an exact domain filter), leaving no words to rank.
    expect(await page.getByRole('list', { name: 'Understood from your question' }).getByRole('listitem').allTextContents()).toEqual([`${domain}×`]);
    const engine = await e2e.call('search-run', { requestId: 'e2e-check', engine: 'embedded', query: domain, answer: true, maxResults: 50 });
    const links = results.getByRole('link');
    expect(await links.allTextContents()).toEqual(engine.chunks.map((chunk) => chunk.item.metadata.title));
    expect(await links.first().getAttribute('href')).toContain(`#/breaches/${encodeURIComponent(breachId)}`);
    const answer = page.getByRole('region', { name: 'Answer' });
    await answer.getByText('Extractive: quoted from the results').waitFor();
    await eventually('the whole answer', async () => (await answer.locator('.search-answer-text').textContent()) === engine.answer!.text);
    // Light and dark, with results and an answer on screen: nothing serious for axe (contrast included).
    expect(seriousFindings(await captureScreen(page, 'search'))).toEqual([]);
    expect(await unnamedControls(page)).toEqual([]);
  });

  it('shows the chips as the new metadata filter format on request, and applies them', async () => {
    // The filter set is folded behind one control.
    expect(await page.getByRole('checkbox', { name: 'Verified only' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Filters and options' }).click();
    expect(await page.getByRole('button', { name: 'Filters and options' }).getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('checkbox', { name: 'Verified only' }).check();
    // The one sensitive policy: "Not sensitive" until the person opts in (Settings), so fixed.
    expect(await page.getByRole('combobox', { name: 'Sensitive' }).inputValue()).toBe('exclude');
    expect(await page.getByRole('combobox', { name: 'Sensitive' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('region', { name: 'Search results' }).and(page.locator('[aria-busy="false"]')).waitFor();
    // The filter as the core sent it.
    await page.getByRole('button', { name: 'Show filter' }).click();
    const shown = JSON.parse((await page.getByLabel('Filter in the metadata filter format').textContent())!) as unknown;
    expect(shown).toEqual({ domain: { $in: [domain] }, isSensitive: false, isVerified: true });
    const engine = await e2e.call('search-run', { requestId: 'e2e-check', engine: 'embedded', query: domain, filters: { isSensitive: false, isVerified: true }, answer: true, maxResults: 50 });
    const titles = await page
      .getByRole('list', { name: 'Matching breaches' })
      .getByRole('link')
      .allTextContents()
      .catch(() => []);
    expect(titles).toEqual(engine.chunks.map((chunk) => chunk.item.metadata.title));
    await page.getByRole('checkbox', { name: 'Verified only' }).uncheck();
    await page.getByRole('button', { name: 'Hide filter' }).click();
  });

  it('answers its own placeholder: chips "Passwords" and "After 2020", and only the breaches that match', async () => {
    const box = page.getByRole('searchbox', { name: 'Search breaches' });
    const question = 'which of my breaches leaked passwords after 2020?';
    expect(await box.getAttribute('placeholder')).toBe(`e.g. ${question}`);
    await box.fill(question);
    const chips = page.getByRole('list', { name: 'Understood from your question' }).getByRole('listitem');
    expect(await chips.allTextContents()).toEqual(['Passwords×', 'After 2020×']);
    // The one sensitive policy: sensitive breaches stay out until the person opts in (Settings).
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('region', { name: 'Search results' }).and(page.locator('[aria-busy="false"]')).waitFor();

    const mine = (await e2e.call('breaches-list', { includeSensitive: true, limit: 500 })).rows.map((row) => row.breach).filter((breach) => !breach.isSensitive);
    const expected = mine.filter((breach) => breach.dataClasses.includes('Passwords') && breach.breachDate >= '2021-01-01');
    const fewer = mine.filter((breach) => breach.dataClasses.includes('Passwords')).length;
    expect(expected.length).toBeGreaterThan(1);
    expect(expected.length).toBeLessThan(fewer);
    const links = page.getByRole('list', { name: 'Matching breaches' }).getByRole('link');
    const hrefs = await links.evaluateAll((anchors) => anchors.map((a) => decodeURIComponent(a.getAttribute('href')!.split('/').pop()!.split('?')[0]!)));
    expect(hrefs.sort()).toEqual(expected.map((breach) => breach.id).sort());
    expect(await page.getByRole('status').filter({ hasText: /match/ }).textContent()).toBe(`${expected.length} breaches match`);
    expect(await page.getByText(/score 0\.00/).count()).toBe(0);
    await eventually('the answer', async () =>
      ((await page.getByRole('region', { name: 'Answer' }).locator('.search-answer-text').textContent()) ?? '').startsWith(`${expected.length} breaches match "passwords after 2020":`),
    );
    await page.getByRole('button', { name: 'Show filter' }).click();
    expect(JSON.parse((await page.getByLabel('Filter in the metadata filter format').textContent())!)).toEqual({
      dataClasses: { $in: ['Passwords'] },
      breachDate: { $gte: '2021-01-01' },
      isSensitive: false,
    });
    // No constant score: each result says what matched.
    expect(await page.getByText(/score \d/).count()).toBe(0);
    expect(await page.getByRole('list', { name: 'Matching breaches' }).locator('.search-matched').first().textContent()).toMatch(/^Matched: Passwords/);
    // The chips, their remove buttons and the count, light and dark: nothing serious for axe.
    expect(seriousFindings(await captureScreen(page, 'search-question'))).toEqual([]);
    expect(await unnamedControls(page)).toEqual([]);

    // Removing "After 2020" widens the answer to every breach that leaked passwords; the text does not bring it back.
    await page.getByRole('button', { name: 'Remove After 2020' }).click();
    expect(await chips.allTextContents()).toEqual(['Passwords×']);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('region', { name: 'Search results' }).and(page.locator('[aria-busy="false"]')).waitFor();
    await eventually(
      'every breach with passwords',
      async () => (await page.getByRole('status').filter({ hasText: /match/ }).textContent()) === (fewer > 50 ? `${fewer} breaches match; the first 50 are shown` : `${fewer} breaches match`),
    );
    await page.getByRole('button', { name: 'Hide filter' }).click();
    await box.fill(domain);
  });

  it('asks one question of each class and shows the answer sentence and the list the engine gives', async () => {
    const box = page.getByRole('searchbox', { name: 'Search breaches' });
    const rows = (await e2e.call('breaches-list', { limit: 500 })).rows.map((row) => row.breach);
    const has = (breach: { dataClasses: string[] }, ...names: string[]) => names.some((name) => breach.dataClasses.includes(name));
    /** Asks on the page; the sentence shown (or null) and the titles listed. */
    const ask = async (question: string) => {
      await box.fill(question);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.getByRole('region', { name: 'Search results' }).and(page.locator('[aria-busy="false"]')).waitFor();
      const sentence = page.locator('.search-sentence [role="status"]');
      const titles = await page
        .getByRole('list', { name: 'Matching breaches' })
        .getByRole('link')
        .allTextContents()
        .catch(() => []);
      return { sentence: (await sentence.count()) > 0 ? await sentence.textContent() : null, titles };
    };
    /** The engine's own answer to what the page sends (the question, the policy's filter). */
    const engine = (question: string) => e2e.call('search-run', { requestId: 'e2e-check', engine: 'embedded', query: question, filters: { isSensitive: false }, answer: false, maxResults: 50 });
    const questions: { question: string; expect(shown: { sentence: string | null; titles: string[] }, answer: Awaited<ReturnType<typeof engine>>): void }[] = [
      // Everyday name of a data class, counted: the sentence counts the breaches the list holds.
      {
        question: 'how many breaches exposed my phone number?',
        expect: (shown) => {
          const phone = rows.filter((breach) => has(breach, 'Phone numbers', 'Partial phone numbers'));
          expect(shown.sentence).toBe(`${phone.length} ${phone.length === 1 ? 'breach' : 'breaches'} exposed your phone numbers`);
        },
      },
      // Size: the largest, said with its accounts.
      {
        question: 'the biggest breach',
        expect: (shown, answer) => expect(shown.sentence).toBe(`${answer.chunks[0]!.item.metadata.title}, ${answer.chunks[0]!.item.metadata.pwnCount.toLocaleString('en-US')} accounts`),
      },
      { question: 'the 3 largest breaches', expect: (shown) => expect(shown.sentence).toMatch(/^The 3 largest: /) },
      // Dates, ordered by what was asked.
      {
        question: 'the latest breach',
        expect: (shown, answer) =>
          expect(shown.sentence).toBe(`${answer.chunks[0]!.item.metadata.title}, breached on ${new Date(answer.chunks[0]!.item.metadata.breachDate * 1000).toISOString().slice(0, 10)}`),
      },
      { question: 'breaches in 2019', expect: (shown) => expect(shown.titles.length).toBe(Math.min(50, rows.filter((breach) => breach.breachDate.startsWith('2019')).length)) },
      // Flags.
      { question: 'unverified breaches', expect: (shown) => expect(shown.sentence).toBeNull() },
      // Negation.
      { question: 'breaches without passwords', expect: (shown) => expect(shown.titles.length).toBe(Math.min(50, rows.filter((breach) => !has(breach, 'Passwords')).length)) },
      // The person's own state: nothing is fixed yet, so every breach is not fixed.
      { question: "how many breaches haven't I fixed?", expect: (shown) => expect(shown.sentence).toBe(`${rows.length} breaches match`) },
      // Domain.
      { question: `breaches of ${domain}`, expect: (shown) => expect(shown.titles.length).toBeGreaterThan(0) },
      // Mixed.
      { question: 'how many unverified breaches since 2019 with passwords?', expect: (shown) => expect(shown.sentence).toMatch(/^\d+ breach(es)? exposed your passwords$/) },
    ];
    for (const { question, expect: check } of questions) {
      const shown = await ask(question);
      const answer = await engine(question);
      // The list on screen is the engine's answer to the same question, in its order.
      expect(shown.titles, question).toEqual(answer.chunks.map((chunk) => chunk.item.metadata.title));
      expect(shown.sentence ?? undefined, question).toBe(answer.sentence);
      check(shown, answer);
    }

    // The page at 1024×768, light and dark, as it first is (filters folded), with a sentence, chips and results on screen.
    const fold = page.getByRole('button', { name: 'Filters and options' });
    if ((await fold.getAttribute('aria-expanded')) === 'true') await fold.click();
    await ask('the 5 largest breaches with passwords');
    // The service serves demo data here: the page and its results say so.
    expect(await page.getByText('Demo data — these breaches are invented.').count()).toBe(1);
    expect(await page.locator('.search-chunk .search-demo-badge').count()).toBe(5);
    await page.setViewportSize({ width: 1024, height: 768 });
    const docs = path.resolve(import.meta.dirname, '../../docs/screenshots');
    mkdirSync(docs, { recursive: true });
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ path: path.join(docs, `search-1024x768-${theme}.png`) });
    }
    expect(seriousFindings(await captureScreen(page, 'search-answer'))).toEqual([]);
    expect(await unnamedControls(page)).toEqual([]);
    await page.setViewportSize({ width: 1360, height: 860 });
    await box.fill(domain);
  });

  it('the breaches list\'s text box finds breaches by data class: "passwords" lists those that leaked passwords', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Breaches', exact: true }).click();
    const list = page.getByRole('listbox', { name: 'Breaches' });
    await list.waitFor();
    await page.getByRole('searchbox', { name: 'Search breaches' }).fill('passwords');
    const shown = (await e2e.call('breaches-list', { limit: 500 })).rows.filter((row) => row.breach.dataClasses.includes('Passwords'));
    expect(shown.length).toBeGreaterThan(0);
    await page.getByText('Breaches that exposed Passwords.').waitFor();
    await eventually(
      'the list of breaches with passwords',
      async () =>
        (await e2e.call('breaches-list', { text: 'passwords', limit: 500 })).total === shown.length && (await list.getByRole('option').first().getAttribute('aria-setsize')) === String(shown.length),
    );
    await page.getByRole('searchbox', { name: 'Search breaches' }).fill('');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Search' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search breaches' }).fill(domain);
  });

  it('searches the reference instance: the token goes to the secret store (and the form says which), chunks stream in before the answer text', async () => {
    const service = e2e.service!;
    const { token } = await service.search.tokens.create('local', { scopes: ['ai-search:read', 'ai-search:run'] });
    proxy = await holdingProxy(service.url);
    const form = page.getByRole('region', { name: 'Remote search instance' });
    await form.getByRole('textbox', { name: 'API base URL' }).fill(`${proxy.url}/client/v4`);
    await form.getByRole('textbox', { name: 'Account ID' }).fill('local');
    await form.getByRole('textbox', { name: 'Instance name' }).fill('breaches');
    await form.getByLabel('API token').fill(token);
    await form.getByRole('button', { name: 'Save instance' }).click();
    await form.getByText(SAVED).waitFor();
    expect(await form.getByLabel('API token').inputValue()).toBe('');
    const view = await e2e.call('search-remote-get', {});
    // The namespace field starts at "default", the namespace Cloudflare gives every account.
    expect(view).toEqual({ instance: { baseUrl: `${proxy.url}/client/v4`, accountId: 'local', namespace: 'default', name: 'breaches', legacy: false }, hasToken: true });
    expect(JSON.stringify(await e2e.call('settings-get', {}))).not.toContain(token);

    await page.getByRole('button', { name: 'Filters and options' }).click();
    await page.getByRole('radio', { name: /^Remote instance/ }).check();
    await page.getByRole('checkbox', { name: 'Only breaches naming me' }).check();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const answer = page.getByRole('region', { name: 'Answer' });
    // Chunks first: the results and the answer's label are on screen while its text has not come.
    await page.getByRole('list', { name: 'Matching breaches' }).waitFor();
    await answer.getByText('Extractive: quoted from the results').waitFor();
    expect(await answer.locator('.search-answer-text').textContent()).toBe('…');
    expect(await page.getByRole('region', { name: 'Search results' }).getAttribute('aria-busy')).toBe('true');
    proxy.release();
    await page.getByRole('region', { name: 'Search results' }).and(page.locator('[aria-busy="false"]')).waitFor();
    expect((await answer.locator('.search-answer-text').textContent())!.length).toBeGreaterThan(20);

    // The remote instance indexes the whole catalog with titles from the details feed; "only mine" kept it to the person's breaches.
    const titles = await page.getByRole('list', { name: 'Matching breaches' }).getByRole('link').allTextContents();
    const details = (await service.rtdb.get(['catalog', 'breaches', breachId])) as { title: string };
    expect(titles[0]).toBe(details.title);
    title = details.title;
    await page.getByRole('button', { name: 'Show filter' }).click();
    const sent = JSON.parse((await page.getByLabel('Filter in the metadata filter format').textContent())!) as { key: { $in: string[] } };
    const mine = (await e2e.call('breaches-list', { includeSensitive: true, limit: 500 })).rows.map((row) => `breaches/${row.breach.id}`);
    expect([...sent.key.$in].sort()).toEqual(mine.sort());
  });

  it('says what went wrong when the instance refuses the token', async () => {
    const service = e2e.service!;
    const { id, token } = await service.search.tokens.create('local', { scopes: ['ai-search:read'] });
    await service.search.tokens.revoke(id);
    const form = page.getByRole('region', { name: 'Remote search instance' });
    await form.getByLabel('API token').fill(token);
    await form.getByRole('button', { name: 'Save instance' }).click();
    await form.getByText(SAVED).waitFor();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('heading', { name: 'The search failed' }).waitFor();
    expect(await page.getByText(/was revoked at/).count()).toBeGreaterThan(0);
  });

  it('still searches with the embedded engine when the service is gone', async () => {
    await e2e.stopService();
    await page.getByRole('radio', { name: /^Embedded/ }).check();
    await page.getByRole('searchbox', { name: 'Search breaches' }).fill(domain);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('region', { name: 'Search results' }).and(page.locator('[aria-busy="false"]')).waitFor();
    const links = page.getByRole('list', { name: 'Matching breaches' }).getByRole('link');
    expect(await links.first().getAttribute('href')).toContain(`#/breaches/${encodeURIComponent(breachId)}`);
    // The embedded engine searches the details feed's local copy too: the title, not the id.
    expect(await links.first().textContent()).toBe(title);
    await page.getByRole('region', { name: 'Answer' }).getByText('Extractive: quoted from the results').waitFor();
  });
});
