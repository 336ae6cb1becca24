// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { expectAccessible, renderApp } from './setup.tsx';

// Saving a valid instance goes through the real core in Chromium (test/e2e/search.e2e.test.ts).
describe('search: the remote instance form', () => {
  test('each field says what is wrong with it, with the core’s schema, and nothing is sent', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/search' });
    const form = await screen.findByRole('region', { name: 'Remote search instance' });
    await user.type(within(form).getByRole('textbox', { name: 'API base URL' }), 'ftp://api.example.com');
    const account = within(form).getByRole('textbox', { name: 'Account ID' });
    await user.clear(account);
    await user.type(account, 'not an id');
    await user.click(within(form).getByRole('button', { name: 'Save instance' }));

    const url = within(form).getByRole('textbox', { name: 'API base URL' });
    expect(url).toHaveAttribute('aria-invalid', 'true');
    expect(url).toHaveAccessibleDescription(/must be an http\(s\) address/);
    expect(account).toHaveAccessibleDescription('This must be 1–64 letters, digits, "-" or "_".');
    expect(within(form).getByRole('textbox', { name: 'Instance name' })).not.toHaveAttribute('aria-invalid');
    expect(within(form).getByLabelText('API token')).toHaveAccessibleDescription('Kept in your system’s keychain, never shown again.');
    expect(core.callsOf('search-remote-set')).toHaveLength(0);
    await expectAccessible();
  });

  test('the namespace is asked for (default: “default”) and checked, and not asked for a legacy instance', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/search' });
    const form = await screen.findByRole('region', { name: 'Remote search instance' });
    const namespace = within(form).getByRole('textbox', { name: 'Namespace' });
    expect(namespace).toHaveValue('default');
    expect(namespace).toHaveAccessibleDescription(/ai-search\/namespaces\/‹namespace›\/instances\/‹name›/);
    await user.type(within(form).getByRole('textbox', { name: 'API base URL' }), 'https://api.example.com/client/v4');
    await user.clear(namespace);
    await user.type(namespace, 'my namespace');
    await user.click(within(form).getByRole('button', { name: 'Save instance' }));
    expect(namespace).toHaveAttribute('aria-invalid', 'true');
    expect(namespace).toHaveAccessibleDescription(/This must be 1–64 letters, digits, "-" or "_"\./);
    expect(core.callsOf('search-remote-set')).toHaveLength(0);
    await user.click(within(form).getByRole('checkbox', { name: /Legacy instance/ }));
    expect(within(form).queryByRole('textbox', { name: 'Namespace' })).toBeNull();
    await expectAccessible();
  });
});
