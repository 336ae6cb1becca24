import { plural } from '../../lib/format.ts';
import { EMPTY_FILTERS, formatHash } from '../../lib/urlState.ts';

/** Where the one sensitive setting lives; every note that mentions hidden breaches links there. */
export const SENSITIVE_SETTING_HREF = formatHash({ screen: 'settings', filters: EMPTY_FILTERS });

/**
 * Says that sensitive breaches were left out, how many, and where to change that: the same
 * sentence wherever the one sensitive policy (shared/api/sensitive.ts) hid something.
 */
export function SensitiveNote({ hidden }: { hidden: number | undefined }) {
  if (!hidden) return null;
  return (
    <p className="form-note sensitive-note">
      {plural(hidden, 'sensitive breach is', 'sensitive breaches are')} not shown here. <a href={SENSITIVE_SETTING_HREF}>Show sensitive breaches in Settings</a>
    </p>
  );
}
