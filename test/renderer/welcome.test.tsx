// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { act } from 'react';
import { describe, expect, test, vi } from 'vitest';
import { expectAccessible, renderApp } from './setup.tsx';

const signedOut = { auth: { state: 'signed-out' as const, account: undefined, remembered: true } };

describe('welcome / sign-in', () => {
  test('idle: three honest choices and a Sign in button, accessible', async () => {
    renderApp(signedOut);
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeEnabled();
    const group = screen.getByRole('group', { name: 'Breach data' });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value')),
    ).toEqual(['hibp', 'service', 'demo']);
    expect(within(group).getByRole('radio', { name: /Check my addresses with Have I Been Pwned/ })).not.toBeChecked();
    expect(within(group).getByRole('radio', { name: /Connect to a breach-alert service/ })).not.toBeChecked();
    // The local service with nothing chosen yet: the quick start's demo data, labelled as such.
    expect(within(group).getByRole('radio', { name: /Try it with demo data/ })).toBeChecked();
    await expectAccessible();
  });

  test('signing in shows progress and Cancel; Cancel goes back to idle', async () => {
    const user = userEvent.setup();
    const { core } = renderApp(signedOut);
    core.signInBehaviour = 'hang';
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('progressbar', { name: 'Signing in' })).toBeInTheDocument();
    expect(screen.getByText(/Finish signing in in your browser/)).toBeInTheDocument();
    await expectAccessible();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(core.callsOf('auth-cancel')).toHaveLength(1);
    // Cancelling is not an error.
    expect(screen.queryByRole('alert')).toBeNull();
  });

  test('no browser opened: says so, offers the link to open and to copy', async () => {
    const user = userEvent.setup();
    const { core } = renderApp(signedOut);
    core.signInBehaviour = 'hang';
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    const url = 'http://127.0.0.1:6060/oidc/auth?client_id=breach-monitor-desktop&state=s';
    act(() => core.emit('auth-changed', { state: 'signing-in', remembered: true, signIn: { url, browser: 'failed' } }));
    expect(await screen.findByRole('alert')).toHaveTextContent('couldn’t open a web browser');
    expect(screen.getByRole('link', { name: 'Open the sign-in page' })).toHaveAttribute('href', url);
    expect(screen.getByRole('textbox', { name: 'Sign-in link' })).toHaveValue(url);
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(url);
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await expectAccessible();
  });

  test('without clipboard access, Copy link selects the link for the keyboard', async () => {
    const user = userEvent.setup();
    const { core } = renderApp(signedOut);
    core.signInBehaviour = 'hang';
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    act(() => core.emit('auth-changed', { state: 'signing-in', remembered: true, signIn: { url: 'http://127.0.0.1:6060/oidc/auth?x=1', browser: 'opened' } }));
    expect(await screen.findByText(/Browser didn’t open\?/)).toBeInTheDocument();
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: () => Promise.reject(new Error('denied')) } });
    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await screen.findByText(/press Ctrl\+C/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Sign-in link' })).toHaveFocus();
  });

  test('in the browser host the page opens the sign-in itself, once', async () => {
    const user = userEvent.setup();
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { core } = renderApp(signedOut);
    core.signInBehaviour = 'hang';
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    const status = { state: 'signing-in' as const, remembered: true, signIn: { url: 'http://127.0.0.1:6060/oidc/auth?x=2', browser: 'page' as const } };
    act(() => core.emit('auth-changed', status));
    act(() => core.emit('auth-changed', { ...status }));
    expect(await screen.findByText('Finish signing in in the new tab.')).toBeInTheDocument();
    expect(open).toHaveBeenCalledTimes(1);
    expect(open).toHaveBeenCalledWith(status.signIn.url, '_blank', 'noopener,noreferrer');
    open.mockRestore();
  });

  test('a failed sign-in says why in words', async () => {
    const user = userEvent.setup();
    const { core } = renderApp(signedOut);
    core.signInBehaviour = 'fail';
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Sign-in didn’t work.');
    expect(alert).toHaveTextContent('could not be reached');
    await expectAccessible();
  });

  test('a successful sign-in opens the app', async () => {
    const user = userEvent.setup();
    renderApp(signedOut);
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Overview' })).toBeInTheDocument();
  });

  test('another service: its addresses are checked, then saved before signing in', async () => {
    const user = userEvent.setup();
    const { core } = renderApp(signedOut);
    await user.click(await screen.findByRole('radio', { name: /Connect to a breach-alert service/ }));
    const url = screen.getByRole('textbox', { name: 'Service URL' });
    await user.clear(url);
    await user.type(url, 'not a url');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(/Enter a full address/)).toBeInTheDocument();
    expect(url).toHaveAttribute('aria-invalid', 'true');
    expect(core.callsOf('auth-sign-in')).toHaveLength(0);

    await user.clear(url);
    await user.type(url, 'https://monitor.example.com/api/v1');
    const issuer = screen.getByRole('textbox', { name: 'Identity provider' });
    await user.clear(issuer);
    await user.type(issuer, 'https://accounts.example.com');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(core.callsOf('auth-sign-in')).toHaveLength(1));
    expect(core.callsOf('settings-set')).toEqual([{ serviceUrl: 'https://monitor.example.com/api/v1', issuer: 'https://accounts.example.com' }]);
    expect(core.callsOf('breach-source-set')).toEqual([{ choice: 'service' }]);
  });
});
