import type { ReactNode } from 'react';
import { EmptyState } from '../../components/States.tsx';
import { useChecks } from '../../state/checks.ts';
import { checkingLine, checkProgress, PROBLEM_ACTIONS } from './checksText.ts';

/**
 * What an empty list means depends on what the service knows: while addresses are pending it
 * is "Checking 2 of your addresses…", never "No breaches"; without a source it is "not
 * checked"; only when the service checked them all is it "in no known breach". `known` is the
 * app's own wording for that last case (and for an older service that does not say).
 */
export function NoBreaches({ known }: { known: ReactNode }) {
  const view = useChecks((s) => s.view);
  const checking = checkingLine(view);
  const problem = view.checks?.problem;
  if (view.source === 'none' || problem?.code === 'no-source' || problem?.code === 'key-refused') {
    return (
      <EmptyState icon="alert" title="Your addresses haven’t been checked">
        <p>{problem ? `${problem.detail} ${PROBLEM_ACTIONS[problem.code]}` : 'The service has no breach-data source, so it does not know whether your addresses are in a breach.'}</p>
      </EmptyState>
    );
  }
  if (checking) {
    const progress = checkProgress(view);
    return (
      <EmptyState icon="clock" title={checking}>
        <p>No breaches to show yet — which doesn’t mean there are none. They appear here as each address is checked.</p>
        {progress ? <progress className="checks-progress" max={progress.total} value={progress.done} aria-label={`${progress.done} of ${progress.total} addresses checked`} /> : null}
      </EmptyState>
    );
  }
  return <>{known}</>;
}
