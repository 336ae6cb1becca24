// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { FakeCore } from './fakeCore.ts';
import { expectAccessible, renderApp } from './setup.tsx';

describe('settings: breach details feed', () => {
  test('a database secret is kept by the core, with a visible "discouraged" note', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/settings' });
    const section = await screen.findByRole('region', { name: 'Breach details feed' });
    expect(within(section).getByRole('radio', { name: 'None' })).toBeChecked();
    expect(within(section).queryByRole('note')).not.toBeInTheDocument();

    await user.click(within(section).getByRole('radio', { name: 'Database secret' }));
    expect(within(section).getByRole('note')).toHaveTextContent(/^Discouraged/);
    await user.type(within(section).getByLabelText('Secret'), 's3cret');
    await user.click(within(section).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(core.callsOf('feed-configure')).toEqual([{ auth: 'secret', secret: 's3cret' }]));
    await waitFor(() => expect(within(section).getByLabelText('Secret')).toHaveValue(''));
    await expectAccessible();
  });

  test('a service-account key file goes to the core; "Update details now" syncs', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/settings' });
    const section = await screen.findByRole('region', { name: 'Breach details feed' });
    await user.click(within(section).getByRole('radio', { name: 'Service account' }));
    await user.click(within(section).getByLabelText('Service-account key file (JSON)'));
    await user.paste('{"type":"service_account"}');
    await user.click(within(section).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(core.callsOf('feed-configure')).toEqual([{ auth: 'service-account', serviceAccountKey: '{"type":"service_account"}' }]));
    await user.click(within(section).getByRole('button', { name: 'Update details now' }));
    expect(await within(section).findByText(/breaches’ details, checked/)).toBeInTheDocument();
  });

  test('the feed address: checked with the core’s schema, sent only when changed', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/settings' });
    const section = await screen.findByRole('region', { name: 'Breach details feed' });
    const address = within(section).getByRole('textbox', { name: 'Feed address' });
    await waitFor(() => expect(address).toHaveValue(core.feed.url));

    await user.clear(address);
    await user.type(address, 'ftp://feed.example.com/db');
    await user.click(within(section).getByRole('button', { name: 'Save' }));
    expect(await within(section).findByText('The feed address must be an http(s) address.')).toBeInTheDocument();
    expect(address).toHaveAttribute('aria-invalid', 'true');
    await user.clear(address);
    await user.type(address, 'feed');
    await user.click(within(section).getByRole('button', { name: 'Save' }));
    expect(await within(section).findByText(/The feed address must be a full address/)).toBeInTheDocument();
    expect(core.callsOf('feed-configure')).toHaveLength(0);
    await expectAccessible();

    await user.clear(address);
    await user.type(address, 'https://feed.example.com/db');
    await user.click(within(section).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(core.callsOf('feed-configure')).toEqual([{ url: 'https://feed.example.com/db', auth: 'none' }]));
    expect(address).not.toHaveAttribute('aria-invalid');
    expect(core.feed.url).toBe('https://feed.example.com/db');

    // A chosen address can be cleared: an empty field, or the button, goes back to the default.
    await user.clear(address);
    expect(address).toHaveAttribute('placeholder', core.feed.defaultUrl);
    await user.click(within(section).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(core.callsOf('feed-configure').at(-1)).toEqual({ url: null, auth: 'none' }));
    await waitFor(() => expect(address).toHaveValue(core.feed.defaultUrl));
    expect(within(section).queryByRole('button', { name: 'Use the default address' })).not.toBeInTheDocument();
  });

  test('"Use the default address" appears only while another address is chosen', async () => {
    const user = userEvent.setup();
    const core = new FakeCore();
    core.feed = { ...core.feed, url: 'https://feed.example.com/db' };
    renderApp({ hash: '#/settings', core });
    const section = await screen.findByRole('region', { name: 'Breach details feed' });
    await user.click(await within(section).findByRole('button', { name: 'Use the default address' }));
    await waitFor(() => expect(core.callsOf('feed-configure')).toEqual([{ url: null, auth: 'none' }]));
    expect(core.feed.url).toBe(core.feed.defaultUrl);
    await waitFor(() => expect(within(section).queryByRole('button', { name: 'Use the default address' })).not.toBeInTheDocument());
  });
});
