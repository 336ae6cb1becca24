// @vitest-environment jsdom
// The list's filter panel (issue 25, finding 7): it folds behind "Filters" on short windows so
// the list keeps six rows at 1024×768; set filters stay in view as chips and on the toggle's count.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test } from 'vitest';
import { expectAccessible, renderApp } from './setup.tsx';

/** A window `height` px tall, as `matchMedia` answers a `(min-height: …)` query. */
function windowHeight(height: number): void {
  window.matchMedia = ((query: string) => {
    const min = Number(/min-height:\s*(\d+)px/.exec(query)?.[1] ?? 0);
    return { matches: height >= min, media: query, addEventListener() {}, removeEventListener() {} } as unknown as MediaQueryList;
  }) as typeof window.matchMedia;
}

afterEach(() => {
  delete (window as { matchMedia?: unknown }).matchMedia;
});

describe('filter panel', () => {
  test('closed on a short window, open on a tall one; the person’s choice wins', async () => {
    const user = userEvent.setup();
    windowHeight(768);
    const first = renderApp({ hash: '#/breaches?domain=adobe' });
    await screen.findByRole('listbox', { name: 'Breaches' });
    const toggle = screen.getByRole('button', { name: /^Filters/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    // One filter of the panel is set: counted on the toggle, and its chip stays in view.
    expect(toggle).toHaveTextContent('Filters1');
    expect(screen.getByRole('button', { name: 'Remove domain filter adobe' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Data classes' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: 'Include sensitive breaches' })).toBeNull();
    await expectAccessible();

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('button', { name: 'Data classes' })).toBeVisible();
    expect(screen.getByRole('checkbox', { name: 'Include sensitive breaches' })).toBeVisible();
    first.unmount();

    // A tall window opens it by itself; closing it is remembered while the window lives.
    windowHeight(900);
    const second = renderApp({ hash: '#/breaches' });
    await screen.findByRole('listbox', { name: 'Breaches' });
    const again = screen.getByRole('button', { name: /^Filters/ });
    expect(again).toHaveAttribute('aria-expanded', 'true');
    await user.click(again);
    expect(again).toHaveAttribute('aria-expanded', 'false');
    second.unmount();
    renderApp({ hash: '#/breaches' });
    await screen.findByRole('listbox', { name: 'Breaches' });
    expect(screen.getByRole('button', { name: /^Filters/ })).toHaveAttribute('aria-expanded', 'false');
  });
});
