// @vitest-environment jsdom
// Settings → Your addresses with the fake core (test/renderer/fakeCore.ts: the contract's channels
// over memory, schemas checked): an address is checked before it is sent, a refusal of the core
// shows on the field, an added address waits for its code with "Verify" and "Send the code again",
// and removing one asks first, saying what goes, with Cancel and Escape changing nothing.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { expectAccessible, renderApp } from './setup.tsx';

describe('Settings → Your addresses', () => {
  test('adds with a validation message first, then waits for the code; verifies; removes after saying what goes', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/settings' });
    const section = await screen.findByRole('region', { name: 'Your addresses' });
    expect(within(section).getByText(/A code is sent to each address you add/)).toBeInTheDocument();
    const field = within(section).getByRole('textbox', { name: 'Email address to add' });

    await user.type(field, 'sam at example');
    await user.click(within(section).getByRole('button', { name: 'Add address' }));
    expect(within(section).getByText(/This is not an email address/)).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(core.callsOf('addresses-add')).toEqual([]);

    await user.clear(field);
    await user.type(field, 'Sam@Example.org{Enter}');
    const item = await within(section).findByRole('listitem', { name: 'sam@example.org' });
    expect(item).toHaveAccessibleDescription(/waiting for verification/);
    expect(within(item).getByRole('button', { name: 'Send the code again to sam@example.org' })).toBeInTheDocument();
    await expectAccessible();

    // The same again: the core's refusal, on the field.
    await user.type(field, 'sam@example.org{Enter}');
    expect(await within(section).findByText(/is already on your list/)).toBeInTheDocument();

    await user.type(within(item).getByRole('textbox', { name: 'Code sent to sam@example.org' }), '123456');
    await user.click(within(item).getByRole('button', { name: 'Verify sam@example.org' }));
    await waitFor(() => expect(within(section).getByRole('listitem', { name: 'sam@example.org' })).toHaveAccessibleDescription('checking…'));
    expect(core.callsOf('addresses-verify')).toEqual([{ email: 'sam@example.org', code: '123456' }]);

    await user.click(within(section).getByRole('button', { name: 'Remove sam@example.org' }));
    let dialog = await screen.findByRole('dialog', { name: 'Remove sam@example.org?' });
    expect(dialog).toHaveTextContent('It will no longer be checked. No breach names it, so nothing else goes.');
    expect(within(dialog).getByRole('button', { name: 'Remove sam@example.org' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(core.callsOf('addresses-remove')).toEqual([]);
    await user.click(within(section).getByRole('button', { name: 'Remove sam@example.org' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove sam@example.org?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove sam@example.org' }));
    await waitFor(() => expect(within(section).queryByRole('listitem', { name: 'sam@example.org' })).toBeNull());
    expect(core.callsOf('addresses-remove')).toEqual([{ email: 'sam@example.org' }]);
  });
});
