import { useEffect, useId } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { Skeleton } from '../../components/States.tsx';
import { formatDate, plural } from '../../lib/format.ts';
import { EMPTY_FILTERS, formatHash } from '../../lib/urlState.ts';
import { whenIdle } from '../../lib/whenIdle.ts';
import { PROGRESS_WEEKS as WEEKS } from '../../../shared/report/summary.ts';
import { useNextSteps } from '../../state/nextSteps.ts';

/** The Overview's lead: the most urgent group with something left, and a link into the guided fix there. */
export function WhatToDoNext() {
  const { summary, error, load } = useNextSteps();
  const headingId = useId();
  // The report reads every breach, so it waits for the browser to be idle after the overview
  // draws: a person who moves on at once (to the list) does not wait behind it. Only its summary
  // reaches this page (state/nextSteps.ts).
  useEffect(() => whenIdle(() => void load()), [load]);
  const next = summary?.next;

  let body;
  // Without its summary the card would wait forever: say why, and offer to ask again.
  if (!summary && error)
    body = (
      <div className="next-error" role="alert">
        <p className="card-note">The next step couldn’t be worked out: {error}</p>
        <button type="button" className="button button-small" onClick={() => void load()}>
          Try again
        </button>
      </div>
    );
  else if (!summary) body = <Skeleton lines={2} />;
  else if (!next)
    body = (
      <p className="next-done">
        <Icon name="check" /> Nothing left to fix. Breach Monitor keeps checking and tells you about new breaches.
      </p>
    );
  else {
    body = (
      <>
        <p className="next-group">
          <strong>{next.title}</strong>: {plural(next.unresolved, 'item')} left in {plural(next.breaches, 'breach', 'breaches')}.
        </p>
        <p className="card-note">{next.why}</p>
        <a className="button button-primary button-small next-link" href={formatHash({ screen: 'fix', fix: { group: next.id }, filters: EMPTY_FILTERS })}>
          <Icon name="wrench" size={14} />
          Start with {next.title.toLowerCase()}
        </a>
      </>
    );
  }
  return (
    <section className="card card-wide next-card" aria-labelledby={headingId}>
      <h2 id={headingId} className="card-title">
        What to do next
      </h2>
      {body}
    </section>
  );
}

/** Resolved per week, from the service's `resolvedAt`: bars drawn with CSS, the table for screen readers. */
export function ProgressByWeek() {
  const progress = useNextSteps((s) => s.summary?.progress);
  const failed = useNextSteps((s) => s.error !== undefined && s.summary === undefined);
  const headingId = useId();
  if (failed) return null;
  // While the summary is on its way the card keeps (nearly all of) its room: appearing later it
  // pushed the cards below it down by its whole height, and the year chart, in view for that
  // moment, was fetched and drawn only to end up below the fold.
  if (!progress)
    return (
      <section className="card card-wide" aria-labelledby={headingId} aria-busy="true">
        <h2 id={headingId} className="card-title">
          Fixed per week
        </h2>
        <Skeleton lines={1} className="card-note" />
        <Skeleton lines={1} className="skeleton-week-bars" />
      </section>
    );
  const max = Math.max(1, ...progress.weeks.map((week) => week.count));
  const total = progress.weeks.reduce((sum, week) => sum + week.count, 0);
  return (
    <section className="card card-wide" aria-labelledby={headingId}>
      <h2 id={headingId} className="card-title">
        Fixed per week
      </h2>
      <p className="card-note">
        {total === 0 ? `Nothing fixed in the last ${WEEKS} weeks.` : `${plural(total, 'item')} fixed in the last ${WEEKS} weeks, by the week the service recorded it.`}
        {progress.before > 0 ? ` ${plural(progress.before, 'item')} earlier.` : ''}
        {progress.unknownDate > 0 ? ` ${plural(progress.unknownDate, 'item')} not yet confirmed by the service.` : ''}
      </p>
      <div className="week-bars" aria-hidden="true">
        {progress.weeks.map((week) => (
          <div key={week.weekStart} className="week-bar">
            <span className="week-count tabular">{week.count > 0 ? week.count : ''}</span>
            <span className="week-track">
              <span className="week-fill" style={{ height: `${(week.count / max) * 100}%` }} />
            </span>
            <span className="week-label">{formatDate(week.weekStart).replace(/,? \d{4}$/, '')}</span>
          </div>
        ))}
      </div>
      <table className="visually-hidden">
        <caption>Items fixed per week</caption>
        <thead>
          <tr>
            <th scope="col">Week starting</th>
            <th scope="col">Fixed</th>
          </tr>
        </thead>
        <tbody>
          {progress.weeks.map((week) => (
            <tr key={week.weekStart}>
              <th scope="row">{formatDate(week.weekStart)}</th>
              <td>{week.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
