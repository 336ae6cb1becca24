// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ALICE, FakeCore } from './fakeCore.ts';
import { expectAccessible, renderApp } from './setup.tsx';

afterEach(() => vi.restoreAllMocks());

/** jsdom has no downloads: catch the Blob the page hands to its download link. */
function captureDownloads() {
  const files: { name: string; type: string; text: Promise<string> }[] = [];
  const blobs = new Map<string, Blob>();
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:test/${blobs.size}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href)!;
    files.push({ name: this.download, type: blob.type, text: blob.text() });
  });
  return files;
}

describe('reports', () => {
  test('CSV and JSON exports hold every breach × email × data class with its state', async () => {
    const user = userEvent.setup();
    const files = captureDownloads();
    const { core } = renderApp({ settings: { showSensitive: true }, hash: '#/reports' });
    await screen.findByRole('heading', { name: 'Breach Monitor report' });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await user.click(screen.getByRole('button', { name: 'Export JSON' }));
    expect(files.map((file) => [file.name.replace(/\d{4}-\d{2}-\d{2}/, 'DATE'), file.type])).toEqual([
      ['breach-monitor-report-DATE.csv', 'text/csv;charset=utf-8'],
      ['breach-monitor-report-DATE.json', 'application/json'],
    ]);
    const csv = (await files[0]!.text).trimEnd().split('\r\n');
    const expected = core.breaches.reduce((sum, b) => sum + b.breach.dataClasses.length * Object.keys(b.accounts).length, 0);
    expect(csv[0]).toBe('breach,domain,breachDate,sensitive,email,dataClass,resolved,resolvedAt,pending');
    expect(csv).toHaveLength(expected + 1);
    expect(csv).toContain(`LinkedIn,linkedin.com,2012-05-05,false,${ALICE},Passwords,true,2024-01-02T08:00:00Z,false`);
    const json = JSON.parse(await files[1]!.text);
    expect(json.rows).toHaveLength(expected);
    expect(json.credit).toMatch(/Have I Been Pwned/);
  });

  test('the printable report lists each breach with its state, and credits Have I Been Pwned when its data is in it', async () => {
    renderApp({ hash: '#/reports' });
    const report = await screen.findByRole('article', { name: 'Breach Monitor report' });
    const linkedIn = within(report).getByRole('region', { name: 'LinkedIn' });
    expect(within(linkedIn).getAllByRole('row')).toHaveLength(3);
    expect(within(linkedIn).getAllByText('Fixed')).toHaveLength(2);
    expect(within(report).getByRole('link', { name: /Have I Been Pwned/ })).toBeInTheDocument();
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();
    await expectAccessible();
  });

  test('in the desktop app "Save as PDF" asks the host, and says where the file went or that nothing was saved', async () => {
    const user = userEvent.setup();
    const core = new FakeCore();
    renderApp({ core, hash: '#/reports' });
    await screen.findByRole('article', { name: 'Breach Monitor report' });
    const save = screen.getByRole('button', { name: 'Save as PDF' });
    await user.click(save);
    expect(await screen.findByText(/^Saved the report to \/home\/person\/Documents\/breach-monitor-report-\d{4}-\d{2}-\d{2}\.pdf\.$/)).toHaveAttribute('role', 'status');
    expect(core.callsOf('report-save-pdf')).toEqual([{ fileName: expect.stringMatching(/^breach-monitor-report-\d{4}-\d{2}-\d{2}\.pdf$/) }]);

    core.pdfSave = 'cancel';
    await user.click(save);
    expect(await screen.findByText('Not saved: the save dialog was closed.')).toBeInTheDocument();

    core.pdfSave = 'no-host';
    await user.click(save);
    expect(await screen.findByRole('alert')).toHaveTextContent('The PDF wasn’t saved: Saving a PDF directly needs the desktop app.');
    await expectAccessible();
  });

  test('our own demo catalog is not credited to anyone', async () => {
    const core = new FakeCore();
    core.includesHibp = false;
    renderApp({ core, hash: '#/reports' });
    const report = await screen.findByRole('article', { name: 'Breach Monitor report' });
    expect(within(report).queryByRole('link', { name: /Have I Been Pwned/ })).toBeNull();
  });
});
