// @vitest-environment jsdom
// What a form says about a saved token follows where the core keeps secrets: "in the keychain"
// only when there is one (finding: "Saved. The API token is in the keychain" on a machine where
// Settings says there is no keychain).
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { secretPlace } from '../../renderer/lib/secretPlace.ts';
import { renderApp } from './setup.tsx';

async function saveToken(): Promise<HTMLElement> {
  const user = userEvent.setup();
  const form = await screen.findByRole('region', { name: 'Remote search instance' });
  await user.type(within(form).getByRole('textbox', { name: 'API base URL' }), 'https://search.example.com/client/v4');
  await user.type(within(form).getByRole('textbox', { name: 'Account ID' }), 'local');
  await user.type(within(form).getByRole('textbox', { name: 'Instance name' }), 'breaches');
  await user.type(within(form).getByLabelText('API token'), 'token-123');
  await user.click(within(form).getByRole('button', { name: 'Save instance' }));
  return form;
}

describe('where a saved token is kept, truthfully', () => {
  test('no keychain: the search form says the token lasts until the app quits, never “keychain”', async () => {
    renderApp({ hash: '#/search', auth: { remembered: false, secretsKeptIn: 'memory' } });
    const form = await screen.findByRole('region', { name: 'Remote search instance' });
    expect(within(form).getByLabelText('API token')).toHaveAccessibleDescription('No keychain is available: kept only until Breach Monitor quits, never shown again.');
    await saveToken();
    const saved = await within(form).findByText(/^Saved\./);
    expect(saved).toHaveTextContent('Saved. The API token is kept only until Breach Monitor quits (no keychain is available), so you will enter it again next time.');
    expect(form).not.toHaveTextContent(/keychain\b(?! is available)/);
  });

  test('with a keychain it says so', async () => {
    renderApp({ hash: '#/search' });
    const form = await saveToken();
    expect(await within(form).findByText(/^Saved\./)).toHaveTextContent('Saved. The API token is kept in your system’s keychain.');
  });

  test('each store in words; an older core that says nothing falls back on “remembered”', () => {
    expect(secretPlace({ secretsKeptIn: 'encrypted-file', remembered: true }).saved).toBe('kept on this computer, encrypted by your system');
    expect(secretPlace({ remembered: false }).where).toMatch(/^No keychain is available/);
    expect(secretPlace(undefined).where).toBe('Kept by Breach Monitor');
  });
});
