import { TextField } from '../../components/TextField.tsx';
import { useChecks } from '../../state/checks.ts';
import { DEFAULT_HIBP_URL } from '../../../shared/ipc/checks.ts';
import { PROBLEM_ACTIONS } from '../checks/checksText.ts';

/** The problems that are about Have I Been Pwned itself (its address, the key, reaching it, its rate limit), with what to do here, in Settings. */
const HERE: Partial<Record<string, string>> = {
  'wrong-address': 'Correct the address above (or leave it empty for haveibeenpwned.com), then choose “Use this”.',
  'key-refused': 'Paste the key again above, or get a new one at haveibeenpwned.com/API/Key, then choose “Use this”.',
  'source-unreachable': PROBLEM_ACTIONS['source-unreachable'],
  'rate-limited': PROBLEM_ACTIONS['rate-limited'],
};

/**
 * The advanced part of the Have I Been Pwned choice: another address that answers like its API v3
 * (a proxy, a cache, a compatible service), closed unless one is set or it is wrong. Applied with
 * the choice ("Use this"): the local service restarts asking there.
 */
export function HibpAddressField({ id, value, onChange, error, open }: { id: string; value: string; onChange(value: string): void; error: string | undefined; open: boolean }) {
  return (
    <details className="hibp-address" open={open || undefined}>
      <summary>Advanced: another Have I Been Pwned address</summary>
      <TextField
        id={id}
        type="url"
        label="Have I Been Pwned address"
        value={value}
        onChange={onChange}
        error={error}
        placeholder={DEFAULT_HIBP_URL}
        hint={`For a proxy or a service that answers like Have I Been Pwned's API v3: its base, ending in /api/v3. Empty for ${DEFAULT_HIBP_URL}.`}
      />
    </details>
  );
}

/**
 * What the service said about Have I Been Pwned, in the words a person can act on: a wrong
 * address ("did you mean …/api/v3?"), a refused key, an unreachable host, a rate limit. Nothing
 * while the checks work (or before the service has said anything).
 */
export function HibpProblem() {
  const problem = useChecks((s) => s.view.checks?.problem);
  const action = problem ? HERE[problem.code] : undefined;
  if (!problem || action === undefined) return null;
  return (
    <p className="form-message is-error hibp-problem" role="alert">
      <strong>{problem.detail}</strong> {action}
    </p>
  );
}
