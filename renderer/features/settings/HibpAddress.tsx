import { TextField } from '../../components/TextField.tsx';
import { useChecks } from '../../state/checks.ts';
import { DEFAULT_HIBP_URL } from '../../../shared/ipc/checks.ts';
import { PROBLEM_ACTIONS } from '../checks/checksText.ts';

/** The problems that are about Have I Been Pwned itself: its address, the key, reaching it, its rate limit. */
const HIBP_PROBLEMS = new Set(['wrong-address', 'key-refused', 'source-unreachable', 'rate-limited']);

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
  if (!problem || !HIBP_PROBLEMS.has(problem.code)) return null;
  return (
    <p className="form-message is-error hibp-problem" role="alert">
      <strong>{problem.detail}</strong> {PROBLEM_ACTIONS[problem.code]}
    </p>
  );
}
