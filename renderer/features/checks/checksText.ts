import type { AddressCheck, UserChecks } from '../../../shared/api/checks.ts';
import type { ChecksView } from '../../../shared/ipc/checks.ts';
import { formatCount, formatDateTime, plural } from '../../lib/format.ts';

/** Addresses the service has not checked yet: its header's count, else the body's pending addresses, else none known. */
export function pendingCount(view: ChecksView): number {
  return view.pending ?? view.checks?.addresses.filter((address) => address.state === 'pending').length ?? 0;
}

/** "Checking 2 of your addresses…" — what the app says instead of "No breaches" while it does not know. */
export function checkingLine(view: ChecksView): string | undefined {
  const pending = pendingCount(view);
  if (pending === 0) return undefined;
  return pending === 1 ? 'Checking one of your addresses…' : `Checking ${formatCount(pending)} of your addresses…`;
}

/** How far the checks are: addresses checked (or failed) of all, when the service lists them. */
export function checkProgress(view: ChecksView): { done: number; total: number } | undefined {
  const addresses = view.checks?.addresses;
  if (!addresses || addresses.length === 0) return undefined;
  return { done: addresses.filter((address) => address.state !== 'pending').length, total: addresses.length };
}

/** "in under a minute", "in 3 min", "in 2 h", "in 7 days". */
export function inHowLong(iso: string, now: number): string {
  const ms = Date.parse(iso) - now;
  if (Number.isNaN(ms) || ms < 60_000) return 'in under a minute';
  const minutes = Math.round(ms / 60_000);
  if (minutes < 90) return `in ${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `in ${hours} h`;
  return `in ${Math.round(hours / 24)} days`;
}

/** One address as the person reads it. A clean address is "checked …, in no known breach" — never just "no breaches". */
export function addressLine(address: AddressCheck, now: number): string {
  const checked = address.checkedAt ? `checked ${formatDateTime(address.checkedAt)}` : undefined;
  if (address.state === 'pending') {
    const next = address.nextCheckAt ? ` — next check ${inHowLong(address.nextCheckAt, now)}` : '';
    return checked ? `${checked}; being checked again${next}` : `not checked yet${next}`;
  }
  if (address.state === 'failed') return checked ? `the last check failed; ${checked} before that` : 'could not be checked yet; Breach Monitor keeps trying';
  const via = address.viaDomainSearch ? ' (through its domain)' : '';
  const count = address.breachCount ?? 0;
  return `${checked ?? 'checked'}${via}, ${count === 0 ? 'in no known breach' : `in ${plural(count, 'breach', 'breaches')}`}`;
}

/** "Next check in 3 min — your key allows 10 lookups a minute". */
export function queueLine(queue: UserChecks['queue'], now: number): string | undefined {
  const parts: string[] = [];
  if (queue.nextCheckAt) parts.push(`Next check ${inHowLong(queue.nextCheckAt, now)}`);
  if (queue.requestsPerMinute) parts.push(`your key allows ${plural(queue.requestsPerMinute, 'lookup')} a minute`);
  if (parts.length === 0) return undefined;
  if (queue.waiting > 0 && parts.length === 2) parts[1] += ` (${plural(queue.waiting, 'lookup')} queued)`;
  const line = parts.join(' — ');
  return line.charAt(0).toUpperCase() + line.slice(1);
}

/** What the person can do about each problem, after the service's own sentence. */
export const PROBLEM_ACTIONS: Record<NonNullable<UserChecks['problem']>['code'], string> = {
  'no-source': 'Choose where breach data comes from in Settings → Breach data: your own Have I Been Pwned key, or demo data.',
  'key-refused': 'Check the key in Settings → Breach data, or get a new one at haveibeenpwned.com/API/Key.',
  'source-unreachable': 'Breach Monitor tries again by itself; nothing you hold is lost meanwhile.',
  'rate-limited': 'Have I Been Pwned asked to wait; the checks go on by themselves when it allows.',
  'wrong-address': 'Correct the Have I Been Pwned address in Settings → Breach data (Advanced), or leave it empty for haveibeenpwned.com.',
};

/** "An infostealer captured your passwords for netflix.com, spotify.com" */
export function stealerLine(domains: readonly string[]): string {
  const shown = domains.slice(0, 6).join(', ');
  const more = domains.length > 6 ? ` and ${plural(domains.length - 6, 'more site')}` : '';
  return `An infostealer captured your passwords for ${shown}${more}`;
}
