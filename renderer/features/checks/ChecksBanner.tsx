import { Icon } from '../../components/Icon.tsx';
import { formatHash, EMPTY_FILTERS } from '../../lib/urlState.ts';
import { useChecks } from '../../state/checks.ts';
import { checkingLine, checkProgress, PROBLEM_ACTIONS } from './checksText.ts';

/**
 * Under the status bar on every screen: "Checking 2 of your addresses…" with its progress while
 * the service has not checked them all (so an empty list never reads as clean), and a problem
 * that stops the checks as a sentence with what to do.
 */
export function ChecksBanner() {
  const view = useChecks((s) => s.view);
  const problem = view.checks?.problem;
  if (problem) {
    return (
      <section className="banner banner-warning" aria-label="Breach checks">
        <Icon name="alert" />
        <div className="banner-text">
          <p role="status">
            <strong>{problem.detail}</strong> {PROBLEM_ACTIONS[problem.code]}
          </p>
        </div>
        {problem.code === 'no-source' || problem.code === 'key-refused' || problem.code === 'wrong-address' ? (
          <a className="button button-small" href={formatHash({ screen: 'settings', filters: EMPTY_FILTERS })}>
            Open Settings
          </a>
        ) : null}
      </section>
    );
  }
  const line = checkingLine(view);
  if (!line) return null;
  const progress = checkProgress(view);
  return (
    <section className="banner banner-info" aria-label="Breach checks">
      <Icon name="clock" />
      <div className="banner-text">
        <p role="status">
          <strong>{line}</strong> Until then, no breaches shown for them does not mean none.
        </p>
        {progress ? <progress className="checks-progress" max={progress.total} value={progress.done} aria-label={`${progress.done} of ${progress.total} addresses checked`} /> : null}
      </div>
    </section>
  );
}
