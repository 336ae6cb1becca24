import { useEffect, useId, type ReactNode } from 'react';
import { ClippedText } from '../../components/ClippedText.tsx';
import { Credit } from '../../components/Credit.tsx';
import { Domain } from '../../components/Domain.tsx';
import { Icon } from '../../components/Icon.tsx';
import { EmptyState, ErrorState, Skeleton } from '../../components/States.tsx';
import { TriCheckbox } from '../../components/TriCheckbox.tsx';
import { formatDate, formatDateTime, plural } from '../../lib/format.ts';
import { useDetail, type ResolutionChange } from '../../state/detail.ts';
import { EMPTY_FILTERS, formatHash } from '../../lib/urlState.ts';
import { useRoute } from '../../state/route.ts';
import { useSync } from '../../state/sync.ts';
import { usePreferences } from '../../state/preferences.ts';
import type { BreachDetail, CellState } from '../../../shared/ipc/views.ts';
import { changesThatMatter, columnCells, dataClassesOf, failedCells, pendingCount, tally } from './matrix.ts';
import { BreachBadges } from '../details/BreachBadges.tsx';
import { BreachDescription } from '../details/BreachDescription.tsx';
import { BreachFlags, formatCount } from '../details/BreachFlags.tsx';
import { BreachLogo } from '../details/BreachLogo.tsx';

export function BreachDetailPane({ id, onClose }: { id: string; onClose(): void }) {
  const { detail, loading, error, load } = useDetail();
  const current = detail && detail.breach.id === id ? detail : undefined;

  useEffect(() => {
    void load(id);
  }, [id, load]);

  const close = (
    <button type="button" className="icon-button" onClick={onClose} aria-label="Close breach detail" aria-keyshortcuts="Escape">
      <Icon name="close" />
    </button>
  );

  if (error && !current) {
    return (
      <div className="detail">
        <div className="detail-toolbar">{close}</div>
        {error.code === 'not-found' ? (
          <EmptyState icon="search" title="Removed by the service">
            <p>This breach is no longer in your data: the service removed it at the last sync.</p>
          </EmptyState>
        ) : (
          <ErrorState title="This breach couldn’t be opened" message={error.message} onRetry={() => void load(id)} />
        )}
      </div>
    );
  }
  if (!current) {
    return (
      <div className="detail" aria-busy={loading} aria-label="Loading breach">
        <div className="detail-toolbar">{close}</div>
        <Skeleton lines={2} className="skeleton-title" />
        <Skeleton lines={6} />
      </div>
    );
  }
  return <DetailBody detail={current} close={close} />;
}

function DetailBody({ detail, close }: { detail: BreachDetail; close: ReactNode }) {
  const { setResolved, retry, discard, actionError } = useDetail();
  const online = useSync((s) => s.status?.online ?? true);
  const queueWords = online ? 'Sending them to the service at the next sync.' : 'You’re offline; they’ll be sent when the service can be reached.';
  const { breach } = detail;
  const titleId = useId();
  const classes = dataClassesOf(detail);
  // Only the cells a change changes are queued, so "N changes queued" counts what changes.
  const resolve = (change: ResolutionChange) => {
    for (const part of changesThatMatter(detail, change)) void setResolved(part);
  };
  const failed = failedCells(detail);
  const pending = pendingCount(detail);
  const all = tally(detail.accounts.flatMap((account) => Object.values(account.cells)));

  return (
    <article className="detail" aria-labelledby={titleId}>
      <div className="detail-toolbar">
        <div className="detail-title-row">
          <BreachLogo id={breach.id} title={detail.details?.title ?? breach.id} />
          <h2 id={titleId} className="detail-title">
            {detail.details?.title ?? breach.id}
          </h2>
          <BreachBadges isSensitive={breach.isSensitive} isNew={detail.isNew} removedFromCatalogAt={detail.removedFromCatalogAt} />
        </div>
        {close}
      </div>

      {detail.removedFromCatalogAt ? (
        <p className="notice notice-quiet">
          <Icon name="alert" />
          <span>
            Removed from the catalog on <time dateTime={detail.removedFromCatalogAt}>{formatDateTime(detail.removedFromCatalogAt)}</time>. The service keeps it in your data as it last knew it, and
            your resolutions are kept: you can still mark what you’ve fixed.
          </span>
        </p>
      ) : null}

      {detail.details ? (
        <section className="breach-about" aria-label="About this breach">
          <BreachFlags details={detail.details} />
          <BreachDescription html={detail.details.description} />
        </section>
      ) : null}

      <dl className="facts">
        {detail.details ? (
          <div>
            <dt>Accounts</dt>
            <dd>{formatCount(detail.details.pwnCount)}</dd>
          </div>
        ) : null}
        <div>
          <dt>Domain</dt>
          <dd>{breach.domain ? <Domain name={breach.domain} /> : 'Not named by the source'}</dd>
        </div>
        <div>
          <dt>Breached</dt>
          <dd>
            <time dateTime={breach.breachDate}>{formatDate(breach.breachDate)}</time>
          </dd>
        </div>
        <div>
          <dt>Added</dt>
          <dd>
            <time dateTime={breach.addedDate}>{formatDate(breach.addedDate)}</time>
          </dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd>
            <time dateTime={breach.modifiedDate}>{formatDate(breach.modifiedDate)}</time>
          </dd>
        </div>
        <div>
          <dt>Progress</dt>
          <dd>
            {all.resolved} of {all.total} resolved
          </dd>
        </div>
      </dl>

      <div className="detail-actions">
        <a className="button button-small" href={formatHash({ screen: 'fix', fix: { breachId: breach.id }, filters: EMPTY_FILTERS })}>
          <Icon name="wrench" size={14} />
          Fix step by step
        </a>
        <button
          type="button"
          className="button button-small"
          onClick={() => {
            const { route, navigate } = useRoute.getState();
            navigate({ ...route, screen: 'graph', breachId: undefined, graph: { nodes: [breach.id], property: '->*', endpoint: 'embedded' } });
          }}
        >
          <Icon name="graph" size={14} />
          Explore in graph
        </button>
        <HideAction breachId={breach.id} />
      </div>

      {/* A slot of fixed height whether or not something is queued: resolving never moves the matrix under the pointer. */}
      <div className="detail-pending-slot">
        {pending > 0 ? (
          <p className="notice notice-pending">
            <Icon name="clock" />
            <ClippedText text={`${plural(pending, 'change')} queued. ${queueWords}`}>
              <strong>{plural(pending, 'change')} queued.</strong> {queueWords}
            </ClippedText>
          </p>
        ) : (
          // The slot says something true when nothing waits, rather than standing empty.
          <p className="notice notice-quiet">
            <Icon name="check" />
            <span className="truncate">No changes waiting to be sent.</span>
          </p>
        )}
      </div>

      {failed.length > 0 ? (
        <section className="notice notice-failed" aria-label="Failed changes">
          <Icon name="alert" />
          <div className="notice-body">
            <p>
              <strong>The service refused {failed.length === 1 ? 'a change' : `${failed.length} changes`}.</strong> Retry to send again, or discard to go back to the service’s state.
            </p>
            <ul className="failed-list">
              {failed.map((cell) => (
                <li key={`${cell.email}|${cell.dataClass}`}>
                  <span className="failed-what">
                    {cell.dataClass} for {cell.email}:
                  </span>{' '}
                  <q>{cell.reason}</q>
                </li>
              ))}
            </ul>
            <div className="notice-actions">
              <button type="button" className="button button-small" onClick={() => void retry()}>
                <Icon name="refresh" size={14} />
                Retry
              </button>
              <button type="button" className="button button-ghost button-small" onClick={() => void discard()}>
                Discard
              </button>
            </div>
          </div>
        </section>
      ) : null}

      {actionError ? (
        <p className="inline-error" role="alert">
          That change didn’t go through: {actionError}
        </p>
      ) : null}

      <div className="matrix-head">
        <h3 className="section-title">What it exposed</h3>
        <button
          type="button"
          className="button button-primary button-small"
          disabled={all.total === 0 || all.resolved === all.total}
          onClick={() => resolve({ breachId: breach.id, dataClasses: classes, resolved: true })}
        >
          <Icon name="check" size={14} />
          Mark all resolved
        </button>
      </div>
      <Matrix detail={detail} classes={classes} onChange={resolve} />
      {detail.includesHibp ? <Credit className="detail-credit" /> : null}
    </article>
  );
}

/**
 * One card per email (they stack, so two or twenty addresses fit a 1024 px window without
 * sideways scrolling), and above them, with several emails, one switch per class for all.
 */
/** Hides the breach from the list on every device of this person (shared preferences). */
function HideAction({ breachId }: { breachId: string }) {
  const { preferences, error, load, hide, unhide } = usePreferences();
  useEffect(() => {
    if (!preferences) void load();
  }, [preferences, load]);
  const hidden = preferences?.hiddenBreaches.includes(breachId) ?? false;
  return (
    <>
      <button type="button" className="button button-small" disabled={!preferences} onClick={() => void (hidden ? unhide(breachId) : hide(breachId))}>
        <Icon name={hidden ? 'eye' : 'eyeOff'} size={14} />
        {hidden ? 'Show this breach again' : 'Hide this breach'}
      </button>
      <p className="detail-hide-note muted" role="status">
        {error ? `Hiding isn’t available: ${error}` : hidden ? 'Hidden from the list on all your devices.' : ''}
      </p>
    </>
  );
}

function Matrix({ detail, classes, onChange }: { detail: BreachDetail; classes: string[]; onChange(change: ResolutionChange): void }) {
  const breachId = detail.breach.id;
  const matrixId = useId();
  if (detail.accounts.length === 0) return <EmptyState icon="mail" title="None of your email addresses is in this breach any more" />;
  return (
    <div className="email-cards">
      {detail.accounts.length > 1 ? (
        <section className="email-card email-card-all" aria-labelledby={`${matrixId}-all`}>
          <h4 id={`${matrixId}-all`} className="email-card-title">
            Every address
          </h4>
          <ul className="all-classes">
            {classes.map((dataClass) => {
              const t = tally(columnCells(detail, dataClass));
              return (
                <li key={dataClass} className="all-class">
                  <TriCheckbox
                    label={`${dataClass} for all emails`}
                    checked={t.total > 0 && t.resolved === t.total}
                    mixed={t.resolved > 0 && t.resolved < t.total}
                    disabled={t.total === 0}
                    onChange={(resolved) => onChange({ breachId, dataClasses: [dataClass], resolved })}
                  />
                  <span aria-hidden="true">{dataClass}</span>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
      {detail.accounts.map((account, column) => {
        const t = tally(Object.values(account.cells));
        const headingId = `${matrixId}-email-${column}`;
        return (
          <section key={account.email} className="email-card" aria-labelledby={headingId}>
            <div className="email-card-head">
              <TriCheckbox
                label={`All classes for ${account.email}`}
                checked={t.total > 0 && t.resolved === t.total}
                mixed={t.resolved > 0 && t.resolved < t.total}
                disabled={t.total === 0}
                onChange={(resolved) => onChange({ breachId, dataClasses: Object.keys(account.cells), emails: [account.email], resolved })}
              />
              <h4 id={headingId} className="email-card-title truncate" title={account.email}>
                {account.email}
              </h4>
              <span className="email-card-count tabular">
                {t.resolved} of {t.total}
              </span>
            </div>
            <ul className="email-card-classes">
              {classes.map((dataClass, row) => (
                <li key={dataClass} className="email-card-class">
                  <span className="email-card-class-name" aria-hidden="true">
                    {dataClass}
                  </span>
                  <Cell
                    id={`${matrixId}-${row}-${column}`}
                    cell={account.cells[dataClass]}
                    label={`${dataClass} for ${account.email}`}
                    onChange={(resolved) => onChange({ breachId, dataClasses: [dataClass], emails: [account.email], resolved })}
                  />
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}

function Cell({ id, cell, label, onChange }: { id: string; cell: CellState | undefined; label: string; onChange(resolved: boolean): void }) {
  if (!cell) return <span className="cell-na">Not exposed</span>;
  const stateId = `${id}-state`;
  return (
    <span className={cell.failed ? 'cell is-failed' : cell.pending ? 'cell is-pending' : cell.resolved ? 'cell is-resolved' : 'cell'}>
      <input type="checkbox" className="checkbox" aria-label={label} aria-describedby={stateId} checked={cell.resolved} onChange={(event) => onChange(event.target.checked)} />
      <span id={stateId} className="cell-state">
        {cell.failed ? (
          <span className="marker marker-failed">
            <Icon name="alert" size={12} />
            Failed
          </span>
        ) : cell.pending ? (
          <span className="marker marker-pending">
            <Icon name="clock" size={12} />
            Queued
          </span>
        ) : cell.localOnly ? (
          <span
            className="marker marker-local"
            title="The service cannot take this change (it resolves only passwords and email addresses, and never unresolves), so it is kept on this computer only."
          >
            <Icon name="lock" size={12} />
            {cell.resolved ? 'Resolved on this computer only' : 'Unresolved on this computer only'}
          </span>
        ) : cell.resolved ? (
          cell.resolvedAt ? (
            <span className="cell-when">
              Resolved{' '}
              <time dateTime={cell.resolvedAt} title={formatDateTime(cell.resolvedAt)}>
                {formatDate(cell.resolvedAt)}
              </time>
            </span>
          ) : (
            <span className="cell-when">Resolved</span>
          )
        ) : (
          <span className="cell-todo">To fix</span>
        )}
      </span>
    </span>
  );
}
