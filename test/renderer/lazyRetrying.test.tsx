// @vitest-environment jsdom
// A lazily loaded part whose chunk cannot be fetched for a moment (the app restarting under an
// open tab) loads once it can, instead of taking the screen down.
import '@testing-library/jest-dom/vitest';
import { render, screen } from '@testing-library/react';
import { Component, Suspense, type ReactNode } from 'react';
import { describe, expect, test } from 'vitest';
import { lazyRetrying } from '../../renderer/lib/lazyRetrying.ts';

describe('lazyRetrying', () => {
  test('asks again after failed fetches and renders once one succeeds', async () => {
    let asked = 0;
    const Chart = lazyRetrying(async () => {
      asked += 1;
      if (asked < 3) throw new TypeError('Failed to fetch dynamically imported module: /app/assets/YearChart.js');
      return { default: () => <p>the chart</p> };
    }, [1, 1, 1]);
    render(
      <Suspense fallback={<p>loading</p>}>
        <Chart />
      </Suspense>,
    );
    expect(await screen.findByText('the chart')).toBeInTheDocument();
    expect(asked).toBe(3);
  });

  test('gives up after its waits, with the last error (an error boundary shows it)', async () => {
    let asked = 0;
    const Failing = lazyRetrying(async () => {
      asked += 1;
      throw new TypeError('Failed to fetch dynamically imported module');
    }, [1, 1]);
    render(
      <Boundary>
        <Suspense fallback={<p>loading</p>}>
          <Failing />
        </Suspense>
      </Boundary>,
    );
    expect(await screen.findByText('failed: Failed to fetch dynamically imported module')).toBeInTheDocument();
    expect(asked).toBe(3);
  });
});

class Boundary extends Component<{ children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <p>failed: {this.state.error.message}</p> : this.props.children;
  }
}
