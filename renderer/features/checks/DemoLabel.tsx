import { Icon } from '../../components/Icon.tsx';
import { EMPTY_FILTERS, formatHash } from '../../lib/urlState.ts';
import { useChecks } from '../../state/checks.ts';

/**
 * The persistent label on every screen that shows exposures while they are invented (the
 * service said `breach-data: demo`). A note, not an alarm: it never moves focus and announces
 * itself once (polite). `print` keeps it on the printed report and its PDF.
 */
export function DemoLabel({ print = false }: { print?: boolean }) {
  const demo = useChecks((s) => s.view.source === 'demo');
  // The printed report decides from its own data (`report.demo`); the screens from the checks.
  if (!demo && !print) return null;
  return (
    <div className={print ? 'demo-label demo-label-print' : 'demo-label'} role={print ? 'note' : 'status'} aria-live={print ? undefined : 'polite'}>
      <Icon name="alert" />
      <p>
        <strong>Demo data — these breaches are invented.</strong>{' '}
        {print ? (
          'No real breach named these addresses; the local service made them up to show how the app works.'
        ) : (
          <>
            <span className="demo-label-more">The local service made them up to show how Breach Monitor works.</span>{' '}
            <a href={formatHash({ screen: 'settings', filters: EMPTY_FILTERS })}>Check your real addresses</a>
          </>
        )}
      </p>
    </div>
  );
}

/**
 * The label beside one answer or result when it comes from invented data (the graph pane's
 * answers, search results): the band above says it for the page, this says it where a person
 * reads or copies a single answer. Words, not only colour, so it is read out and printed.
 */
export function DemoTag() {
  return <span className="badge badge-demo">Demo data (invented)</span>;
}
