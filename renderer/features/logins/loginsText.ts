import { LOGIN_EXPORT_FORMAT_NAMES, type Login, type LoginImportProgress, type LoginImportResult, type PasswordCheckStatus, type SiteBreachVerdict } from '../../../shared/ipc/logins.ts';
import { formatCount, formatDate, plural } from '../../lib/format.ts';

/** Watchtower's rule in words, per breach at a login's site. */
export const VERDICT_WORDS: Record<SiteBreachVerdict, string> = {
  change: 'Breached after your password last changed — change it',
  'changed-since': 'Changed since — likely fine',
  'unknown-date': 'We don’t know when you last changed it',
};

/** The formats the import knows, in one line ("Chrome or Edge passwords (CSV), …, and KeePassXC (CSV)"). */
export function knownFormats(): string {
  const names = Object.values(LOGIN_EXPORT_FORMAT_NAMES);
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** A breach at the site asks for something unless the password changed after it. */
function breachFinding(login: Login): boolean {
  return login.breaches.some((breach) => breach.verdict !== 'changed-since');
}

/** Whether the login has something to act on: a breach since (or without) its last change, a password known to attackers, or one used elsewhere. */
export function hasFindings(login: Login): boolean {
  return breachFinding(login) || login.pwned.state === 'found' || login.reusedWith > 0;
}

/** Open: with findings, and not marked dealt with (nor resolved by a later export's new password). */
export function isOpen(login: Login): boolean {
  return login.resolvedAt === null && hasFindings(login);
}

/** The findings of one login, each a short sentence (the list's and the guided fix's). */
export function findingLines(login: Login): string[] {
  const lines: string[] = [];
  if (login.pwned.state === 'found') lines.push(`This password is known to attackers: seen ${plural(login.pwned.count, 'time')} in breaches (Pwned Passwords).`);
  if (login.reusedWith > 0) lines.push(`Reused password: used at ${formatCount(login.reusedWith + 1)} sites.`);
  for (const breach of login.breaches) if (breach.verdict !== 'changed-since') lines.push(`${breach.title} (${formatDate(breach.breachDate)}): ${VERDICT_WORDS[breach.verdict]}.`);
  return lines;
}

/** The login's name in a sentence or a control: its site, else its title, else its address. */
export function siteName(login: Login): string {
  return login.site ?? login.title ?? login.url ?? 'a site without an address';
}

export function pwnedWords(login: Login): string | undefined {
  switch (login.pwned.state) {
    case 'found':
      return `Known to attackers: seen ${plural(login.pwned.count, 'time')} in breaches`;
    case 'not-found':
      return 'Not in Pwned Passwords';
    case 'unchecked':
      return 'Password not checked yet';
    case 'needs-import':
      return 'Import the export again to check this password';
  }
}

/** What each phase counts: the file's rows while reading, logins while matching; saving is one transaction. */
const PHASES: Record<LoginImportProgress['phase'], { words: string; counts?: string }> = {
  reading: { words: 'Reading the file', counts: 'row' },
  matching: { words: 'Matching sites to breaches', counts: 'login' },
  saving: { words: 'Saving' },
};

export function progressLine(progress: LoginImportProgress | undefined): string {
  if (!progress) return 'Opening the file…';
  const { words, counts } = PHASES[progress.phase];
  if (!counts) return `${words}…`;
  const count = progress.total === null ? `${plural(progress.done, counts)} so far` : `${formatCount(progress.done)} of ${plural(progress.total, counts)}`;
  return `${words}: ${count}`;
}

/** What an import did, in a few sentences. */
export function resultLines(result: LoginImportResult): string[] {
  const lines = [`Imported ${plural(result.imported, 'login')} from ${LOGIN_EXPORT_FORMAT_NAMES[result.format]}.`];
  if (result.unchanged > 0 || result.passwordsChanged > 0)
    lines.push(
      `Since the last import: ${formatCount(result.unchanged)} unchanged, ${plural(result.passwordsChanged, 'password')} changed${result.passwordsChanged > 0 ? ' (their findings are marked dealt with)' : ''}.`,
    );
  if (result.passwordsNotCompared)
    lines.push(`${plural(result.passwordsNotCompared, 'login')} could not be compared with the earlier import (the key it was kept with is gone): their findings stay as they were.`);
  const found = [
    result.breachedSites > 0 ? `${plural(result.breachedSites, 'breached site')} where a password needs changing` : undefined,
    result.reusedPasswords > 0 ? plural(result.reusedPasswords, 'reused password') : undefined,
  ].filter(Boolean);
  lines.push(found.length > 0 ? `Found ${found.join(' and ')}.` : 'No breached site to act on and no reused password.');
  if (result.breachedSitesChangedSince > 0)
    lines.push(`${plural(result.breachedSitesChangedSince, 'other breached site')}: the password there was changed after the breach, so there is nothing to do.`);
  if (result.passwordsToCheck > 0) lines.push(`${plural(result.passwordsToCheck, 'password')} to check with Pwned Passwords: the check goes on below.`);
  return lines;
}

export function skippedLine(result: LoginImportResult): string | undefined {
  if (result.skipped === 0) return undefined;
  return `${plural(result.skipped, 'row')} skipped${result.skippedRows.length > 0 ? `, the first: ${result.skippedRows.map((row) => row.reason).join('; ')}` : ''}.`;
}

/** The background Pwned Passwords check in a sentence; undefined when there is nothing to say. */
export function checkLine(check: PasswordCheckStatus): string | undefined {
  switch (check.state) {
    case 'idle':
      return undefined;
    case 'running':
      return `Checking passwords with Pwned Passwords: ${formatCount(check.done)} of ${formatCount(check.total)}.`;
    case 'waiting-for-network':
      return (
        check.message ??
        `Waiting for the network to check passwords with Pwned Passwords (${formatCount(check.done)} of ${formatCount(check.total)} done). It goes on by itself once the connection is back.`
      );
    case 'done':
      return `${plural(check.total, 'password')} checked with Pwned Passwords.`;
    case 'cancelled':
      return (
        check.message ??
        `The password check was stopped after ${formatCount(check.done)} of ${formatCount(check.total)}. The passwords were dropped from memory: import the export again to check the rest.`
      );
    case 'failed':
      return check.message ?? 'The password check failed.';
  }
}
