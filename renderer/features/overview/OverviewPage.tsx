import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { lazyRetrying } from '../../lib/lazyRetrying.ts';
import { Credit } from '../../components/Credit.tsx';
import { Icon } from '../../components/Icon.tsx';
import { EmptyState, ErrorState, Skeleton } from '../../components/States.tsx';
import { formatCount, plural } from '../../lib/format.ts';
import { whenIdle } from '../../lib/whenIdle.ts';
import { whenInView } from '../../lib/whenInView.ts';
import { EMPTY_FILTERS, formatHash, type Filters } from '../../lib/urlState.ts';
import { useOverview } from '../../state/overview.ts';
import { useSync } from '../../state/sync.ts';
import type { Overview } from '../../../shared/ipc/views.ts';
import type { YearPoint } from './YearChart.tsx';
import { ProgressByWeek, WhatToDoNext } from './NextSteps.tsx';
import { AddressChecks } from '../checks/AddressChecks.tsx';
import { NoBreaches } from '../checks/NoBreaches.tsx';
import { SENSITIVE_SETTING_HREF } from '../status/SensitiveNote.tsx';

// The charting library is the biggest dependency; only this screen needs it.
// Asked again when it could not be fetched (an app restarting under an open tab).
const YearChart = lazyRetrying(() => import('./YearChart.tsx'));

const LIST_LIMIT = 8;

export function fillYears(points: Overview['breachesByYear']): YearPoint[] {
  if (points.length === 0) return [];
  const byYear = new Map(points.map((p) => [p.year, p.count]));
  const years = points.map((p) => p.year);
  const out: YearPoint[] = [];
  for (let year = Math.min(...years); year <= Math.max(...years); year++) out.push({ year, count: byYear.get(year) ?? 0 });
  return out;
}

function breachesLink(update: Partial<Filters>): string {
  return formatHash({ screen: 'breaches', filters: { ...EMPTY_FILTERS, ...update } });
}

export function OverviewPage() {
  const { overview, loading, error, load, loadOnShow } = useOverview();
  const sync = useSync((s) => s.status);

  useEffect(() => {
    void loadOnShow();
  }, [loadOnShow]);

  let body;
  if (error && !overview) body = <ErrorState title="The overview couldn’t be loaded" message={error} onRetry={() => void load()} />;
  else if (!overview) body = <OverviewSkeleton />;
  else if (overview.breaches === 0)
    body = (
      <NoBreaches
        known={
          <EmptyState icon="shield" title={sync?.lastSyncAt ? 'No breaches found' : 'Nothing synced yet'}>
            <p>
              {sync?.lastSyncAt
                ? 'None of your email addresses appear in a breach the service knows of. Breach Monitor keeps checking.'
                : 'Your exposure shows here after the first sync with the service.'}
            </p>
          </EmptyState>
        }
      />
    );
  else body = <OverviewBody overview={overview} pending={sync?.pending ?? 0} />;

  return (
    <div className="page" aria-busy={loading && !overview}>
      <div className="page-head">
        <h1 className="page-title">Overview</h1>
      </div>
      {body}
      <AddressChecks />
      {overview?.includesHibp ? <Credit /> : null}
    </div>
  );
}

function OverviewBody({ overview, pending }: { overview: Overview; pending: number }) {
  const unresolved = overview.unresolvedByEmail.reduce((sum, e) => sum + e.count, 0);
  const years = useMemo(() => fillYears(overview.breachesByYear), [overview.breachesByYear]);
  const exposedEmails = overview.unresolvedByEmail.filter((e) => e.count > 0).length;
  // The chart's code is the biggest chunk of the app (a third of a megabyte): fetched and drawn
  // once its card scrolls into view (its title and note show first) and the browser is idle, so
  // the figures above it (and a click on to the list) come first, and a person who moves on
  // without scrolling down never pays for it. The table beside it holds the same numbers.
  const [drawChart, setDrawChart] = useState(false);
  const chartCard = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!chartCard.current) return;
    let cancelIdle: (() => void) | undefined;
    const cancelView = whenInView(chartCard.current, () => (cancelIdle = whenIdle(() => setDrawChart(true))));
    return () => {
      cancelView();
      cancelIdle?.();
    };
  }, []);
  return (
    <>
      <WhatToDoNext />
      <div className="kpis">
        {/* The one sensitive policy: counted only when the person opted in; otherwise their number, and where to change it. */}
        <Kpi
          label="Breaches"
          value={formatCount(overview.breaches)}
          detail={
            overview.sensitiveBreaches === 0
              ? undefined
              : overview.sensitiveShown
                ? `including ${plural(overview.sensitiveBreaches, 'sensitive one', 'sensitive ones')}`
                : `${plural(overview.sensitiveBreaches, 'sensitive one', 'sensitive ones')} not shown`
          }
          href={overview.sensitiveBreaches > 0 && !overview.sensitiveShown ? SENSITIVE_SETTING_HREF : breachesLink(overview.sensitiveBreaches > 0 ? { includeSensitive: true } : {})}
        />
        <Kpi label="Left to fix" value={formatCount(unresolved)} detail="email × data class" tone={unresolved > 0 ? 'todo' : 'done'} />
        <Kpi label="Email addresses with something to fix" value={formatCount(exposedEmails)} />
        <Kpi label="Changes queued" value={formatCount(pending)} detail={pending > 0 ? 'sent at the next sync' : 'nothing waiting'} />
      </div>
      <div className="overview-grid">
        <BarList
          title="Unresolved by data class"
          empty="Every data class is resolved."
          items={overview.unresolvedByDataClass.map((d) => ({ key: d.name, label: d.name, count: d.count, href: breachesLink({ unresolvedDataClasses: [d.name] }) }))}
          linkLabel={(label) => `Breaches with unresolved ${label}`}
        />
        <BarList
          title="Unresolved by email"
          empty="Nothing left to fix for any address."
          items={overview.unresolvedByEmail.map((e) => ({ key: e.email, label: e.email, count: e.count, href: breachesLink({ email: e.email }) }))}
          linkLabel={(label) => `Breaches of ${label}`}
        />
        <ProgressByWeek />
        <section className="card card-wide" aria-labelledby="years-title" ref={chartCard}>
          <h2 id="years-title" className="card-title">
            Breaches over time
          </h2>
          <p className="card-note">By the year each breach happened.</p>
          {drawChart ? (
            <Suspense fallback={<Skeleton lines={1} className="skeleton-chart" />}>
              <YearChart data={years} />
            </Suspense>
          ) : (
            // Out of view nothing is loading yet: the chart's room, kept so nothing moves when it draws.
            <div className="chart" aria-hidden="true" data-waiting="until-seen" />
          )}
          <table className="visually-hidden">
            <caption>Breaches per year</caption>
            <thead>
              <tr>
                <th scope="col">Year</th>
                <th scope="col">Breaches</th>
              </tr>
            </thead>
            <tbody>
              {overview.breachesByYear.map((p) => (
                <tr key={p.year}>
                  <th scope="row">{p.year}</th>
                  <td>{p.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </div>
    </>
  );
}

function Kpi({ label, value, detail, href, tone }: { label: string; value: string; detail?: string; href?: string; tone?: 'todo' | 'done' }) {
  const content = (
    <>
      <span className="kpi-label">{label}</span>
      <span className={tone ? `kpi-value kpi-${tone}` : 'kpi-value'}>
        {tone === 'done' ? <Icon name="check" size={20} /> : null}
        {value}
      </span>
      {detail ? <span className="kpi-detail">{detail}</span> : null}
    </>
  );
  return href ? (
    <a className="card kpi kpi-link" href={href}>
      {content}
    </a>
  ) : (
    <div className="card kpi">{content}</div>
  );
}

interface BarItem {
  key: string;
  label: string;
  count: number;
  href: string;
}

function BarList({ title, items, empty, linkLabel }: { title: string; items: BarItem[]; empty: string; linkLabel(label: string): string }) {
  const [expanded, setExpanded] = useState(false);
  const sorted = [...items].filter((i) => i.count > 0).sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
  const shown = expanded ? sorted : sorted.slice(0, LIST_LIMIT);
  const max = sorted[0]?.count ?? 1;
  const headingId = `bars-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId} className="card-title">
        {title}
      </h2>
      {sorted.length === 0 ? (
        <p className="card-empty">
          <Icon name="check" /> {empty}
        </p>
      ) : (
        <ul className="bars">
          {shown.map((item) => (
            <li key={item.key} className="bar-item">
              <a className="bar-label truncate" href={item.href} aria-label={`${linkLabel(item.label)}: ${item.count}`}>
                {item.label}
              </a>
              <span className="bar-track" aria-hidden="true">
                <span className="bar-fill" style={{ width: `${Math.max(2, (item.count / max) * 100)}%` }} />
              </span>
              <span className="bar-count tabular" aria-hidden="true">
                {formatCount(item.count)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {sorted.length > LIST_LIMIT ? (
        <button type="button" className="button button-ghost button-small" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
          {expanded ? 'Show fewer' : `Show all ${plural(sorted.length, 'item')}`}
        </button>
      ) : null}
    </section>
  );
}

function OverviewSkeleton() {
  return (
    <div aria-label="Loading overview">
      <div className="kpis">
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} lines={2} className="card kpi" />
        ))}
      </div>
      <div className="overview-grid">
        <Skeleton lines={6} className="card" />
        <Skeleton lines={6} className="card" />
      </div>
    </div>
  );
}
