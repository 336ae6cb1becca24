import type { EmailVerificationMode, PersonEmail } from '../../../shared/api/emails.ts';
import type { AddressRemoval } from '../../../shared/ipc/addresses.ts';
import { formatDateTime, plural } from '../../lib/format.ts';

/**
 * Where one address stands, in words: "waiting for verification", "checking…", "checked 6 Dec,
 * 03:10, in no known breach" / "… in 2 breaches", "the check failed: …". Never "clean" before a
 * check said so.
 */
export function addressStateLine(address: PersonEmail): string {
  switch (address.state) {
    case 'unverified':
      return address.codeExpiresAt ? `waiting for verification — enter the code sent to it (it works until ${formatDateTime(address.codeExpiresAt)})` : 'waiting for verification — send a code to it';
    case 'pending':
      return address.checkedAt ? `checked ${formatDateTime(address.checkedAt)}; checking again…` : 'checking…';
    case 'failed':
      return `the check failed${address.problem ? `: ${address.problem}` : ''}; Breach Monitor keeps trying`;
    default: {
      const count = address.breachCount ?? 0;
      return `${address.checkedAt ? `checked ${formatDateTime(address.checkedAt)}` : 'checked'}, ${count === 0 ? 'in no known breach' : `in ${plural(count, 'breach', 'breaches')}`}`;
    }
  }
}

/** How the service proves an added address, said before the person adds one. */
export function verificationLine(mode: EmailVerificationMode | null): string | undefined {
  if (mode === 'operator') return 'This service runs on this computer for you alone, so you are its operator: an address you add is checked at once, without a code by email.';
  if (mode === 'code') return 'A code is sent to each address you add; enter it here to show the address is yours. Until then it is not checked.';
  if (mode === 'unavailable') return 'This service cannot send verification codes, so it checks only the address you signed in with. Ask its operator to set up email.';
  return undefined;
}

/** What removing an address takes with it, in words for the confirmation. */
export function removalLine(removal: AddressRemoval): string {
  const what: string[] = [];
  if (removal.breaches > 0) {
    const shared = removal.breaches - removal.onlyThisAddress;
    const stay = shared === 0 ? '' : shared === removal.breaches ? ' (they stay listed for your other addresses)' : ` (${shared} stay listed for your other addresses)`;
    what.push(`its ${plural(removal.breaches, 'breach', 'breaches')}${stay}`);
  }
  if (removal.resolutions > 0) what.push(`${plural(removal.resolutions, 'data class', 'data classes')} you marked as dealt with for it`);
  const gone = what.length === 0 ? 'No breach names it, so nothing else goes.' : `Removed with it, from the service and from this computer: ${what.join(' and ')}.`;
  return `It will no longer be checked. ${gone} Adding it again later brings its breaches back, but not your marks.`;
}
