// @vitest-environment jsdom
// "Your accounts" (issue 38) with the fake core (test/renderer/fakeCore.ts and fakeLogins.ts: the
// logins channels over memory, schemas checked, export files known by path): the empty state, the
// path checked before it is sent, an import's progress and its Cancel, the result with the offer
// to delete the export, the findings in words, the filter, "Mark as dealt with", forgetting after
// a confirmation, the Pwned Passwords check's progress, its waiting and its Cancel, the guided
// fix's steps, and the channels' errors as sentences. Found by role and name, as a person would.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { UNKNOWN_CHECKS } from '../../shared/ipc/index.ts';
import { FakeCore } from './fakeCore.ts';
import type { FakeExportFile } from './fakeLogins.ts';
import { expectAccessible, renderApp } from './setup.tsx';

const EXPORT = '/home/sam/Downloads/Chrome Passwords.csv';
const REUSED = 'correct-horse-battery';
const PWNED = 'password123';

/** An invented Chrome export: a breach after the last change (Adobe, 2013), one before it (LinkedIn, 2012), one without a date (Canva), a reused password, a known one, a skipped row. */
function chromeExport(): FakeExportFile {
  return {
    format: 'chrome-csv',
    rows: [
      { url: 'https://www.adobe.com/account', username: 'sam@example.com', password: REUSED, passwordChangedAt: '2012-01-15T10:00:00Z' },
      { url: 'https://www.linkedin.com/login', username: 'sam@example.com', password: 'only-here-1', passwordChangedAt: '2020-03-01T10:00:00Z' },
      { url: 'https://canva.com/', username: 'sam.designs', password: REUSED },
      { skip: 'no password' },
      { url: 'https://shop.example.org/', username: 'sam', password: REUSED, passwordChangedAt: '2024-01-01T00:00:00Z' },
      { url: 'https://quiet.example.net/', username: 'sam', password: 'only-here-2', passwordChangedAt: '2024-01-01T00:00:00Z' },
      { url: 'https://forum.example.com/', username: 'sammy', password: PWNED, passwordChangedAt: '2024-01-01T00:00:00Z' },
    ],
  };
}

function coreWithExport(): FakeCore {
  const core = new FakeCore();
  core.logins.files.set(EXPORT, chromeExport());
  core.logins.pwnedCounts.set(PWNED, 3_861_493);
  return core;
}

/** Every string the page was sent (answers and events) and asked with: none may hold a password. */
function everythingSent(core: FakeCore, heard: unknown[]): string {
  return JSON.stringify([core.calls, heard]);
}

afterEach(() => vi.restoreAllMocks());

async function importWithPath(user: ReturnType<typeof userEvent.setup>, path: string) {
  const field = screen.getByRole('textbox', { name: 'Path of the export file' });
  await user.clear(field);
  await user.type(field, path);
  await user.click(screen.getByRole('button', { name: 'Import' }));
}

describe('Your accounts', () => {
  test('before any import: reachable from the navigation, says what is read, kept and sent, and shows the empty state', async () => {
    const user = userEvent.setup();
    renderApp({ hash: '#/overview' });
    await user.click(await screen.findByRole('link', { name: 'Your accounts' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Your accounts' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Your accounts' })).toHaveAttribute('aria-current', 'page');
    const importCard = screen.getByRole('region', { name: 'Import your password manager’s export' });
    expect(importCard).toHaveTextContent(
      'It knows Chrome or Edge passwords (CSV), Firefox logins (CSV), Bitwarden (CSV), Bitwarden (JSON, unencrypted), 1Password (CSV), 1Password (.1pux) and KeePassXC (CSV)',
    );
    expect(importCard).toHaveTextContent('never the password itself');
    expect(importCard).toHaveTextContent('Only the first 5 characters of each password’s SHA-1 hash go to Pwned Passwords; nothing else leaves this computer.');
    expect(await screen.findByRole('heading', { name: 'No accounts imported yet' })).toBeInTheDocument();
    // In a browser a file has no path: the page asks for it in words.
    expect(screen.getByRole('textbox', { name: 'Path of the export file' })).toHaveAccessibleDescription(/type or paste the file’s full path/);
    expect(screen.queryByLabelText('Export file')).toBeNull();
    await expectAccessible();
  });

  test('checks the path before sending it, and shows the core’s refusals next to the field or as a sentence', async () => {
    const user = userEvent.setup();
    const core = coreWithExport();
    core.logins.files.set('/home/sam/notes.txt', { unknown: true });
    renderApp({ core, hash: '#/logins' });
    await screen.findByRole('heading', { name: 'No accounts imported yet' });
    const field = screen.getByRole('textbox', { name: 'Path of the export file' });

    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(field).toHaveAccessibleDescription(/Type the path of the export file\./);
    await importWithPath(user, 'Downloads/passwords.csv');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(/The path must be an absolute path, such as \/home\/you\/Downloads\/passwords.csv\./);
    expect(core.callsOf('logins-import')).toEqual([]);

    await importWithPath(user, '/home/sam/Downloads/missing.csv');
    await waitFor(() => expect(field).toHaveAccessibleDescription(/names no file on this computer/));

    await importWithPath(user, '/home/sam/notes.txt');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The export couldn’t be imported. This file is not an export Breach Monitor knows. It reads Chrome or Edge passwords (CSV),');
    expect(field).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('heading', { name: 'No accounts imported yet' })).toBeInTheDocument();
  });

  test('shows an import’s progress with Cancel; a cancelled import keeps nothing', async () => {
    const user = userEvent.setup();
    const core = coreWithExport();
    let release!: () => void;
    core.logins.importGate = new Promise((resolve) => (release = resolve));
    renderApp({ core, hash: '#/logins' });
    await screen.findByRole('heading', { name: 'No accounts imported yet' });
    await importWithPath(user, EXPORT);

    expect(await screen.findByText('Reading the file: 0 of 7 rows')).toBeInTheDocument();
    // Another window's import is not this one's.
    act(() => core.emit('logins-import-progress', { importId: 'another-window-import', phase: 'saving', done: 1, total: 1 }));
    expect(screen.getByText('Reading the file: 0 of 7 rows')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Import progress' })).toHaveAttribute('max', '7');
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
    const cancel = screen.getByRole('button', { name: 'Cancel import' });
    await waitFor(() => expect(cancel).toHaveFocus());
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Cancelling the import…')).toBeInTheDocument();
    const { importId } = (core.callsOf('logins-import') as { importId: string }[])[0]!;
    expect(core.callsOf('logins-import-cancel')).toEqual([{ importId }]);
    release();

    expect(await screen.findByText('The import was cancelled: nothing was kept.')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Import progress' })).toBeNull();
    expect(core.logins.view().logins).toEqual([]);
    expect(screen.getByRole('heading', { name: 'No accounts imported yet' })).toBeInTheDocument();
  });

  test('imports: the result with the first skipped reasons, the findings in words, the filter, Change password and Mark as dealt with; no password ever reaches the page', async () => {
    const user = userEvent.setup();
    const core = coreWithExport();
    const heard: unknown[] = [];
    core.on('logins-changed', (view) => heard.push(view));
    core.on('logins-import-progress', (progress) => heard.push(progress));
    renderApp({ core, hash: '#/logins' });
    await screen.findByRole('heading', { name: 'No accounts imported yet' });
    await importWithPath(user, EXPORT);

    const result = await screen.findByText('Imported 6 logins from Chrome or Edge passwords (CSV).');
    const outcome = result.closest('[tabindex="-1"]')!;
    await waitFor(() => expect(outcome).toHaveFocus());
    expect(outcome).toHaveTextContent('1 row skipped, the first: row 5: no password.');
    expect(outcome).toHaveTextContent('Found 2 breached sites where a password needs changing and 1 reused password.');
    // LinkedIn's password was changed after its breach: counted apart, as the tally above the list does.
    expect(outcome).toHaveTextContent('1 other breached site: the password there was changed after the breach, so there is nothing to do.');
    expect(outcome).toHaveTextContent('4 passwords to check with Pwned Passwords: the check goes on below.');

    const list = screen.getByRole('list', { name: 'Logins' });
    const adobe = within(list).getByRole('listitem', { name: 'adobe.com' });
    expect(adobe).toHaveTextContent('Breached after your password last changed — change it');
    expect(adobe).toHaveTextContent('Reused password: used at 3 sites');
    expect(within(list).getByRole('listitem', { name: 'linkedin.com' })).toHaveTextContent('Changed since — likely fine');
    expect(within(list).getByRole('listitem', { name: 'canva.com' })).toHaveTextContent('We don’t know when you last changed it');
    expect(screen.getByRole('region', { name: 'Summary' })).toHaveTextContent('6 logins2 breached sites0 passwords known to attackers1 reused password');

    // The background check, step by step, then its result on the login.
    expect(screen.getByText('Checking passwords with Pwned Passwords: 0 of 4.')).toBeInTheDocument();
    act(() => core.logins.advanceCheck(2));
    expect(await screen.findByText('Checking passwords with Pwned Passwords: 2 of 4.')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Password check progress' })).toHaveAttribute('value', '2');
    act(() => core.logins.advanceCheck());
    expect(await screen.findByText('4 passwords checked with Pwned Passwords.')).toBeInTheDocument();
    expect(within(list).getByRole('listitem', { name: 'example.com' })).toHaveTextContent('Known to attackers: seen 3,861,493 times in breaches');
    expect(screen.getByRole('link', { name: 'Pwned Passwords by Have I Been Pwned' })).toHaveAttribute('href', 'https://haveibeenpwned.com/Passwords');
    expect(screen.queryByRole('button', { name: 'Cancel check' })).toBeNull();

    // Only logins with findings: the two quiet ones go.
    expect(within(list).getAllByRole('listitem', { name: /./ })).toHaveLength(6);
    await user.click(screen.getByRole('checkbox', { name: 'Show only logins with findings' }));
    const filtered = screen.getByRole('list', { name: 'Logins' });
    expect(within(filtered).queryByRole('listitem', { name: 'example.net' })).toBeNull();
    expect(within(filtered).queryByRole('listitem', { name: 'linkedin.com' })).toBeNull();
    expect(within(filtered).getAllByRole('listitem', { name: /./ })).toHaveLength(4);
    expect(screen.getByText('4 logins with findings, of 6')).toBeInTheDocument();

    await user.click(within(filtered).getByRole('button', { name: 'Change password at adobe.com (sam@example.com)' }));
    await waitFor(() => expect(core.openedLinks).toEqual(['https://adobe.com/.well-known/change-password']));

    await user.click(within(filtered).getByRole('button', { name: 'Mark as dealt with: adobe.com (sam@example.com)' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Logins' })).getByRole('listitem', { name: 'adobe.com' })).toHaveTextContent(/Marked dealt with on/));
    const { id } = (core.callsOf('logins-resolve') as { id: string }[])[0]!;
    expect(core.callsOf('logins-resolve')).toEqual([{ id, resolved: true }]);
    const adobeNow = within(screen.getByRole('list', { name: 'Logins' })).getByRole('listitem', { name: 'adobe.com' });
    expect(within(adobeNow).queryByRole('button', { name: /^Mark as dealt with/ })).toBeNull();
    await user.click(within(adobeNow).getByRole('button', { name: 'Open again: adobe.com (sam@example.com)' }));
    await waitFor(() => expect(core.callsOf('logins-resolve')).toHaveLength(2));

    for (const password of [REUSED, PWNED, 'only-here-1', 'only-here-2']) expect(everythingSent(core, heard)).not.toContain(password);
    await expectAccessible();
  });

  test('offers to delete the export, saying why; deleting answers in words, keeping it changes nothing', async () => {
    const user = userEvent.setup();
    const core = coreWithExport();
    renderApp({ core, hash: '#/logins' });
    await screen.findByRole('heading', { name: 'No accounts imported yet' });
    await importWithPath(user, EXPORT);

    const offer = await screen.findByRole('group', { name: 'Delete the export file?' });
    expect(offer).toHaveAccessibleDescription(
      `${EXPORT} holds every password in clear text: anyone, or any program, that can read your files can read them. Breach Monitor has what it needs and won’t read it again.`,
    );
    expect(core.callsOf('logins-delete-export')).toEqual([]);
    await user.click(within(offer).getByRole('button', { name: 'Delete the export file' }));
    expect(await screen.findByText('The export file was deleted.')).toBeInTheDocument();
    expect(core.callsOf('logins-delete-export')).toEqual([{ path: EXPORT }]);
    expect(core.logins.files.has(EXPORT)).toBe(false);

    // Imported again from another copy: kept this time.
    core.logins.files.set('/home/sam/copy.csv', chromeExport());
    await importWithPath(user, '/home/sam/copy.csv');
    await user.click(await screen.findByRole('button', { name: 'Keep it' }));
    expect(screen.getByText('The export file stays where it is. Delete it yourself once you no longer need it.')).toBeInTheDocument();
    expect(core.logins.files.has('/home/sam/copy.csv')).toBe(true);
    expect(core.callsOf('logins-delete-export')).toHaveLength(1);

    // A file gone before the person deletes it: the core's sentence, as an alert.
    await importWithPath(user, '/home/sam/copy.csv');
    const again = await screen.findByRole('group', { name: 'Delete the export file?' });
    core.logins.files.delete('/home/sam/copy.csv');
    await user.click(within(again).getByRole('button', { name: 'Delete the export file' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('There is no file at /home/sam/copy.csv any more: nothing was deleted.');
  });

  test('re-importing a later export counts unchanged and changed passwords, and the changed ones are dealt with', async () => {
    const user = userEvent.setup();
    const core = coreWithExport();
    renderApp({ core, hash: '#/logins' });
    await screen.findByRole('heading', { name: 'No accounts imported yet' });
    await importWithPath(user, EXPORT);
    await screen.findByText('Imported 6 logins from Chrome or Edge passwords (CSV).');

    const later = chromeExport();
    if (!('unknown' in later)) later.rows[0] = { url: 'https://www.adobe.com/account', username: 'sam@example.com', password: 'a-new-one', passwordChangedAt: '2025-06-01T10:00:00Z' };
    core.logins.files.set('/home/sam/later.csv', later);
    await importWithPath(user, '/home/sam/later.csv');
    expect(await screen.findByText('Since the last import: 5 unchanged, 1 password changed (their findings are marked dealt with).')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Logins' })).getByRole('listitem', { name: 'adobe.com' })).toHaveTextContent('Changed since — likely fine');

    // The hash key lost since (its keychain entry deleted): nothing can be compared, nothing is resolved.
    core.logins.loseKey();
    core.logins.files.set('/home/sam/after-key-loss.csv', chromeExport());
    await importWithPath(user, '/home/sam/after-key-loss.csv');
    expect(await screen.findByText('6 logins could not be compared with the earlier import (the key it was kept with is gone): their findings stay as they were.')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Logins' })).getByRole('listitem', { name: 'canva.com' })).not.toHaveTextContent(/Marked dealt with/);
  });

  test('the Pwned Passwords check waits for the network in a sentence, and Cancel check stops it', async () => {
    const user = userEvent.setup();
    const core = coreWithExport();
    core.logins.offlineMessage = 'Waiting for the network: the password check goes on once Pwned Passwords can be reached.';
    renderApp({ core, hash: '#/logins' });
    await screen.findByRole('heading', { name: 'No accounts imported yet' });
    await importWithPath(user, EXPORT);
    expect(await screen.findByText('Waiting for the network: the password check goes on once Pwned Passwords can be reached.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel check' }));
    expect(await screen.findByText(/The password check was stopped after 0 of 4\. The passwords were dropped from memory/)).toBeInTheDocument();
    expect(core.callsOf('logins-check-cancel')).toEqual([{}]);
    expect(screen.queryByRole('button', { name: 'Cancel check' })).toBeNull();
  });

  test('forgets every imported login only after a confirmation; Escape changes nothing', async () => {
    const user = userEvent.setup();
    const core = coreWithExport();
    renderApp({ core, hash: '#/logins' });
    await screen.findByRole('heading', { name: 'No accounts imported yet' });
    await importWithPath(user, EXPORT);
    await screen.findByText('Imported 6 logins from Chrome or Edge passwords (CSV).');

    await user.click(screen.getByRole('button', { name: 'Forget imported logins' }));
    let dialog = screen.getByRole('dialog', { name: 'Forget every imported login?' });
    expect(dialog).toHaveAccessibleDescription(
      'The 6 logins, their findings and what was marked dealt with are removed from this computer. Your password manager and any export file are not touched.',
    );
    expect(within(dialog).getByRole('button', { name: 'Forget them' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Forget imported logins' })).toHaveFocus();
    expect(core.callsOf('logins-forget')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Forget imported logins' }));
    dialog = screen.getByRole('dialog', { name: 'Forget every imported login?' });
    await user.click(within(dialog).getByRole('button', { name: 'Forget them' }));
    expect(await screen.findByText('The imported logins were forgotten on this computer.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'No accounts imported yet' })).toBeInTheDocument();
    expect(core.callsOf('logins-forget')).toEqual([{}]);
  });

  test('in the desktop app, the chosen file’s path goes to the core and the file is never read', async () => {
    const user = userEvent.setup({ applyAccept: true });
    const core = coreWithExport();
    const read = [vi.spyOn(Blob.prototype, 'text'), vi.spyOn(Blob.prototype, 'arrayBuffer'), vi.spyOn(FileReader.prototype, 'readAsText'), vi.spyOn(FileReader.prototype, 'readAsArrayBuffer')];
    const chosen = new File(['url,username,password\nhttps://a.example,sam,not-for-the-page\n'], 'Chrome Passwords.csv', { type: 'text/csv' });
    core.pathForFile = (file) => (file === chosen ? EXPORT : '');
    renderApp({ core, hash: '#/logins' });
    await screen.findByRole('heading', { name: 'No accounts imported yet' });
    expect(screen.queryByRole('textbox', { name: 'Path of the export file' })).toBeNull();

    const input = screen.getByLabelText('Export file');
    await user.upload(input, chosen);
    expect(input).toHaveAccessibleDescription(`Chosen: ${EXPORT}`);
    await user.click(screen.getByRole('button', { name: 'Import' }));
    await screen.findByText('Imported 6 logins from Chrome or Edge passwords (CSV).');
    expect(core.callsOf('logins-import')).toEqual([{ importId: expect.stringMatching(/^[A-Za-z0-9_-]{8,64}$/), path: EXPORT }]);

    // A file made in the page has no path on disk: said next to the field, nothing sent.
    await user.upload(input, new File(['x'], 'made-here.csv', { type: 'text/csv' }));
    expect(input).toHaveAccessibleDescription(/This file is not on this computer’s disk: choose the export file itself\./);
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(core.callsOf('logins-import')).toHaveLength(1);
    for (const spy of read) expect(spy).not.toHaveBeenCalled();
  });

  test('open findings join the guided fix, with the change-password link and Mark as dealt with', async () => {
    const user = userEvent.setup();
    const core = coreWithExport();
    renderApp({ core, hash: '#/logins' });
    await screen.findByRole('heading', { name: 'No accounts imported yet' });
    await importWithPath(user, EXPORT);
    await screen.findByText('Imported 6 logins from Chrome or Edge passwords (CSV).');

    await user.click(screen.getByRole('link', { name: 'Fix step by step' }));
    const fix = await screen.findByRole('region', { name: 'Your accounts at breached sites' });
    expect(fix).toHaveTextContent('3 logins left');
    expect(within(fix).getByText('Change your password at adobe.com')).toBeInTheDocument();
    expect(fix).toHaveTextContent('Adobe (Oct 4, 2013): Breached after your password last changed — change it.');
    expect(within(fix).queryByText('Change your password at linkedin.com')).toBeNull();
    await user.click(within(fix).getByRole('button', { name: 'Change password at canva.com (sam.designs)' }));
    await waitFor(() => expect(core.openedLinks).toEqual(['https://canva.com/.well-known/change-password']));
    await user.click(within(fix).getByRole('button', { name: 'Mark as dealt with: canva.com (sam.designs)' }));
    await waitFor(() => expect(within(fix).queryByText('Change your password at canva.com')).toBeNull());
    expect(fix).toHaveTextContent('2 logins left');
    await expectAccessible();
  });

  test('a large export opens with its first 200 logins, the rest a button away', async () => {
    const user = userEvent.setup();
    const core = new FakeCore();
    core.logins.files.set(EXPORT, {
      format: 'chrome-csv',
      rows: Array.from({ length: 450 }, (_, i) => ({ url: `https://site-${String(i).padStart(3, '0')}.com/`, username: 'sam', password: `own-${i}` })),
    });
    renderApp({ core, hash: '#/logins' });
    await screen.findByRole('heading', { name: 'No accounts imported yet' });
    await importWithPath(user, EXPORT);
    await screen.findByText('Imported 450 logins from Chrome or Edge passwords (CSV).');
    const rows = () => within(screen.getByRole('list', { name: 'Logins' })).getAllByRole('listitem', { name: /^site-/ });
    expect(rows()).toHaveLength(200);
    await user.click(screen.getByRole('button', { name: 'Show 200 more logins (of 450)' }));
    expect(rows()).toHaveLength(400);
    await user.click(screen.getByRole('button', { name: 'Show 50 more logins (of 450)' }));
    expect(rows()).toHaveLength(450);
    expect(screen.queryByRole('button', { name: /^Show .* more/ })).toBeNull();
  });

  test('says in words when the core cannot answer, and when an action is refused', async () => {
    const user = userEvent.setup();
    const core = coreWithExport();
    core.failures.set('logins-get', { code: 'internal', message: 'The logins database could not be opened.' });
    renderApp({ core, hash: '#/logins' });
    const error = await screen.findByRole('alert');
    expect(error).toHaveTextContent('Your accounts couldn’t be loaded');
    expect(error).toHaveTextContent('The logins database could not be opened.');
    core.failures.delete('logins-get');
    await user.click(within(error).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('heading', { name: 'No accounts imported yet' });

    await importWithPath(user, EXPORT);
    await screen.findByText('Imported 6 logins from Chrome or Edge passwords (CSV).');
    core.failures.set('logins-resolve', { code: 'not-found', message: 'This login is no longer on this computer.' });
    await user.click(screen.getByRole('button', { name: 'Mark as dealt with: adobe.com (sam@example.com)' }));
    expect(await within(screen.getByRole('listitem', { name: 'adobe.com' })).findByRole('alert')).toHaveTextContent('This login is no longer on this computer.');
  });

  test('says the breached sites are invented when the catalog is (demo data), and credits Have I Been Pwned only when the catalog is theirs', async () => {
    const user = userEvent.setup();
    const core = coreWithExport();
    // Demo exposures over the demo catalog: the service names nobody to credit.
    core.checks = { ...UNKNOWN_CHECKS, source: 'demo', pending: 0, updatedAt: '2026-11-24T09:00:00Z' };
    const { unmount } = renderApp({ core, hash: '#/logins' });
    await screen.findByRole('heading', { name: 'No accounts imported yet' });
    // Nothing matched yet: nothing to call invented.
    expect(screen.queryByText('Demo data — these breaches are invented.')).toBeNull();
    await importWithPath(user, EXPORT);
    await screen.findByRole('list', { name: 'Logins' });
    expect(screen.getByText('Demo data — these breaches are invented.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Have I Been Pwned (haveibeenpwned.com)' })).toBeNull();
    unmount();

    // Demo exposures over Have I Been Pwned's catalog: the sites' breaches are real, and credited.
    core.checks = {
      ...UNKNOWN_CHECKS,
      source: 'demo',
      pending: 0,
      updatedAt: '2026-11-24T09:00:00Z',
      checks: {
        source: 'demo',
        attribution: 'Have I Been Pwned',
        addresses: [],
        queue: { requestsPerMinute: 10, waiting: 0, nextCheckAt: null },
        stealerLogs: { available: false, entries: [] },
        problem: null,
      },
    };
    renderApp({ core, hash: '#/logins' });
    await screen.findByRole('list', { name: 'Logins' });
    expect(screen.queryByText('Demo data — these breaches are invented.')).toBeNull();
    expect(screen.getByRole('link', { name: 'Have I Been Pwned (haveibeenpwned.com)' })).toBeInTheDocument();
  });
});
