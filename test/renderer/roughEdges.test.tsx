// @vitest-environment jsdom
// Rough edges a new user hit in the walkthrough, each pinned by a test (layout ones, which need
// real layout, are in test/e2e/fix.e2e.test.ts).
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { UNKNOWN_CHECKS } from '../../shared/ipc/checks.ts';
import { inWords } from '../../renderer/lib/errorText.ts';
import { FakeCore } from './fakeCore.ts';
import { renderApp } from './setup.tsx';

describe('no raw network codes in the UI', () => {
  test.each([
    ['could not reach the service: ECONNREFUSED', 'could not reach the service: nothing answered at its address (is it running?)'],
    ['could not reach the service: fetch failed', 'could not reach the service: the connection failed'],
    ['The identity provider could not be reached: TypeError: fetch failed: ENOTFOUND', 'The identity provider could not be reached: its address could not be found'],
    ['could not reach the service: UND_ERR_CONNECT_TIMEOUT', 'could not reach the service: it did not answer in time'],
    ['HTTP 503 from the service', 'HTTP 503 from the service'],
  ])('%s', (raw, words) => {
    expect(inWords(raw)).toBe(words);
  });

  test('the status bar and a failed call say it in words', async () => {
    const user = userEvent.setup();
    const core = new FakeCore();
    const { core: fake } = renderApp({ core, hash: '#/overview' });
    await screen.findByText('Online');
    act(() => fake.emit('sync-changed', { online: false, phase: 'idle', pending: 0, failed: 0, lastError: 'could not reach the service: ECONNREFUSED' }));
    const bar = document.querySelector('.statusbar')!;
    expect(bar).toHaveTextContent('Last sync failed: could not reach the service: nothing answered at its address (is it running?)');
    expect(bar.innerHTML).not.toMatch(/ECONNREFUSED/);
    fake.failures.set('sync-now', { code: 'unavailable', message: 'fetch failed' });
    await user.click(screen.getByRole('button', { name: 'Sync now' }));
    await waitFor(() => expect(bar).toHaveTextContent('Sync now didn’t start: the connection failed'));
    expect(bar.innerHTML).not.toMatch(/fetch failed/);
  });
});

describe('the domain filter', () => {
  test('filters by any part of the domain as the person types, suggesting the domains that match', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/breaches' });
    const domain = await screen.findByRole('combobox', { name: 'Domain' });
    const suggestions = () => [...document.querySelectorAll('[data-testid="domain-suggestions"] option')].map((option) => option.getAttribute('value'));
    await waitFor(() => expect(suggestions()).toEqual(['adobe.com', 'adultsite.example', 'canva.com', 'linkedin.com']));

    await user.type(domain, 'AD');
    expect(suggestions()).toEqual(['adobe.com', 'adultsite.example']);
    // The sensitive adultsite.example stays hidden until asked for, as everywhere else.
    expect(await screen.findByText(/^1 breach\b/)).toBeInTheDocument();
    expect(screen.getByRole('option', { name: /Adobe/ })).toBeInTheDocument();

    await user.clear(domain);
    await user.type(domain, 'dIn.c');
    expect(suggestions()).toEqual(['linkedin.com']);
    await waitFor(() => expect(core.callsOf('breaches-list').at(-1)).toMatchObject({ domainContains: 'dIn.c' }));
    expect(await screen.findByRole('option', { name: /LinkedIn/ })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /Adobe/ })).toBeNull();
    expect(window.location.hash).toBe('#/breaches?domain=dIn.c');
  });
});

describe('Have I Been Pwned is credited only where its data is shown', () => {
  const demo = {
    breach: {
      id: 'AmberBank',
      domain: 'amberbank.example',
      breachDate: '2020-01-01',
      addedDate: '2020-02-01T00:00:00Z',
      modifiedDate: '2020-02-01T00:00:00Z',
      dataClasses: ['Passwords'],
      isSensitive: false,
    },
    accounts: { 'alice@example.com': {} },
  };
  const credit = () => screen.queryByRole('link', { name: 'Have I Been Pwned (haveibeenpwned.com)' });

  test('demo data (the service said `breach-data: demo`) is not credited: list, detail and Overview', async () => {
    const core = new FakeCore({ breaches: [demo] });
    core.checks = { ...UNKNOWN_CHECKS, source: 'demo', pending: 0, updatedAt: '2026-11-24T09:00:00Z' };
    renderApp({ core, hash: '#/breaches/AmberBank' });
    expect(await screen.findByRole('heading', { name: 'AmberBank' })).toBeInTheDocument();
    expect(credit()).toBeNull();
    act(() => window.location.assign('#/overview'));
    expect(await screen.findByRole('link', { name: /^Breaches\s*1$/ })).toBeInTheDocument();
    expect(credit()).toBeNull();
  });

  test('catalog breaches are credited in the list, the detail and the Overview', async () => {
    renderApp({ settings: { showSensitive: true }, hash: '#/breaches/Adobe' });
    expect(await screen.findByRole('heading', { name: 'Adobe' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByRole('link', { name: 'Have I Been Pwned (haveibeenpwned.com)' })).toHaveLength(2));
    act(() => window.location.assign('#/overview'));
    await screen.findByRole('link', { name: /^Breaches\s*4/ });
    expect(credit()).toBeInTheDocument();
  });
});

describe('counts that explain themselves', () => {
  test('with no class filtered, the counts line names none; with one, it names it', async () => {
    const user = userEvent.setup();
    renderApp({ hash: '#/breaches' });
    expect(await screen.findByText('3 breaches · 2 with something to fix · 1 sensitive breach hidden')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^Unresolved data classes/ }));
    await user.click(within(screen.getByRole('group', { name: 'Unresolved data classes' })).getByRole('checkbox', { name: 'Usernames' }));
    expect(await screen.findByText(/^2 breaches · 2 with unresolved Usernames$/)).toBeInTheDocument();
  });
});

describe('settings that do something here', () => {
  test('the desktop app offers start at login and close to tray', async () => {
    renderApp({ hash: '#/settings' });
    expect(await screen.findByRole('checkbox', { name: /Start at login/ })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /Close to tray/ })).toBeInTheDocument();
  });
});
