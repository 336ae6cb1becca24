// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { BreachDetails } from '../../shared/catalog/index.ts';
import { sanitizeDescription } from '../../renderer/features/details/BreachDescription.tsx';
import { FakeCore } from './fakeCore.ts';
import { expectAccessible, renderApp } from './setup.tsx';

const ADOBE = BreachDetails.parse({
  title: 'Adobe Systems',
  domain: 'adobe.com',
  breachDate: '2013-10-04',
  addedDate: '2013-12-04T00:00:00Z',
  modifiedDate: '2022-05-15T23:52:00Z',
  pwnCount: 152445165,
  description:
    'In October 2013, <a href="https://example.org/adobe" target="_blank">153 million accounts</a> were breached.<script>window.hacked = true</script><img src="https://tracker.example/x.png" onerror="window.hacked = true"> <a href="javascript:alert(1)">bad</a>',
  logoPath: 'https://haveibeenpwned.com/Content/Images/PwnedLogos/Adobe.png',
  dataClasses: ['Email addresses', 'Password hints', 'Passwords', 'Usernames'],
  isVerified: true,
  isFabricated: false,
  isSensitive: false,
  isRetired: false,
  isSpamList: true,
  isMalware: false,
  isStealerLog: false,
});

function coreWithDetails(logo?: string): FakeCore {
  const core = new FakeCore();
  core.details.set('Adobe', ADOBE);
  if (logo) core.logos.set('Adobe', logo);
  return core;
}

describe('breach details from the feed', () => {
  test('the detail shows the title, the drawn logo fallback, the account count, flags and the sanitized description', async () => {
    renderApp({ core: coreWithDetails(), hash: '#/breaches/Adobe' });
    const detail = await screen.findByRole('article', { name: 'Adobe Systems' });
    expect(within(detail).getByRole('img', { name: 'Adobe Systems logo (not available)' })).toHaveTextContent('AS');
    expect(detail).toHaveTextContent('Accounts152,445,165');
    const flags = within(detail).getByRole('list', { name: 'Catalog flags' });
    expect(
      within(flags)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Verified', 'Spam list']);
    expect(within(detail).getByRole('link', { name: '153 million accounts' })).toHaveAttribute('href', 'https://example.org/adobe');
    expect(detail.innerHTML).not.toContain('<script');
    expect(detail.innerHTML).not.toContain('tracker.example');
    expect(detail.innerHTML).not.toContain('javascript:');
    expect((window as { hacked?: boolean }).hacked).toBeUndefined();
    expect(within(detail).getByRole('link', { name: /Have I Been Pwned/ })).toBeInTheDocument();
    await expectAccessible();
  });

  test('a cached logo shows as an image from a data: URL', async () => {
    const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
    renderApp({ core: coreWithDetails(png), hash: '#/breaches/Adobe' });
    const logo = await screen.findByRole('img', { name: 'Adobe Systems logo' });
    expect(logo).toHaveAttribute('src', png);
  });

  test('links in the description open in the system browser, not in the app', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ core: coreWithDetails(), hash: '#/breaches/Adobe' });
    await user.click(await screen.findByRole('link', { name: '153 million accounts' }));
    await waitFor(() => expect(core.callsOf('open-link')).toEqual([{ url: 'https://example.org/adobe' }]));
  });

  test('the list shows the title', async () => {
    const core = coreWithDetails();
    core.details.set('Adobe', { ...ADOBE, isSpamList: false });
    renderApp({ core, hash: '#/breaches' });
    expect(await screen.findByText('Adobe Systems')).toBeInTheDocument();
  });

  test('hides fabricated, spam-list and retired breaches until asked', async () => {
    const user = userEvent.setup();
    const flagged = coreWithDetails(); // Adobe is a spam list here
    renderApp({ core: flagged, hash: '#/breaches' });
    const show = await screen.findByRole('checkbox', { name: 'Show fabricated, spam-list and retired breaches' });
    expect(show).not.toBeChecked();
    expect(screen.queryByText('Adobe Systems')).not.toBeInTheDocument();
    await user.click(show);
    expect(await screen.findByText('Adobe Systems')).toBeInTheDocument();
    expect(flagged.callsOf('breaches-list').at(-1)).toMatchObject({ includeFlagged: true });
  });
});

describe('sanitizeDescription', () => {
  test('keeps formatting and http(s) links, drops everything that runs or loads', () => {
    expect(sanitizeDescription('<p>A <em>b</em> <strong>c</strong> <a href="https://x.example/" onclick="x()">d</a></p>')).toBe(
      '<p>A <em>b</em> <strong>c</strong> <a href="https://x.example/">d</a></p>',
    );
    expect(sanitizeDescription('<iframe src="https://x.example"></iframe><style>*{}</style><a href="data:text/html,x">e</a>')).toBe('<a>e</a>');
  });
});
