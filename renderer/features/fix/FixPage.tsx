import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Credit } from '../../components/Credit.tsx';
import { Icon } from '../../components/Icon.tsx';
import { EmptyState, ErrorState, Skeleton } from '../../components/States.tsx';
import { toUiError } from '../../lib/core.ts';
import { formatCount, plural } from '../../lib/format.ts';
import { EMPTY_FILTERS, formatHash } from '../../lib/urlState.ts';
import { applyFix, useReport } from '../../state/report.ts';
import { useRoute } from '../../state/route.ts';
import { useSync } from '../../state/sync.ts';
import { StealerLogFix } from './StealerLogFix.tsx';
import { LoginsFix } from './LoginsFix.tsx';
import { NoBreaches } from '../checks/NoBreaches.tsx';
import { fixGroups, fixIntents, intentSize, stepsFor, type FixGroupState, type FixTarget } from '../../../shared/report/fixGroups.ts';
import { SensitiveNote } from '../status/SensitiveNote.tsx';

const TARGETS_SHOWN = 8;

interface Message {
  kind: 'ok' | 'error';
  text: string;
}

/**
 * The guided fix: what to do about each kind of exposed data, most urgent first, for one breach
 * (`#/fix/<id>`) or across all of them (`#/fix`). "Mark done" resolves the group's data classes
 * for the chosen emails through the outbox, like any other change (offline too).
 */
export function FixPage() {
  const fix = useRoute((s) => s.route.fix);
  const { report, error, load } = useReport();
  const breachId = fix?.breachId;

  useEffect(() => {
    void load();
  }, [load]);

  const groups = useMemo(() => (report ? fixGroups(report, breachId ? { breachId } : {}) : undefined), [report, breachId]);
  const inReport = !breachId || report?.breaches.some((item) => item.breach.id === breachId);

  let body;
  if (error && !report) body = <ErrorState title="Your breaches couldn’t be loaded" message={error} onRetry={() => void load()} />;
  else if (!groups) body = <Skeleton lines={8} className="card" />;
  else if (!inReport)
    body = (
      <EmptyState icon="search" title="This breach isn’t in your data any more">
        <p>It may have been removed by the service at the last sync.</p>
      </EmptyState>
    );
  else if (groups.length === 0)
    body = (
      <NoBreaches
        known={
          <EmptyState icon="shield" title="Nothing to fix">
            <p>No email address of yours is in a breach the service knows of.</p>
          </EmptyState>
        }
      />
    );
  else body = <FixGroups groups={groups} focusGroup={fix?.group} single={breachId !== undefined} />;

  const left = groups?.reduce((sum, group) => sum + group.unresolved, 0) ?? 0;
  return (
    <div className="page fix-page">
      <div className="page-head">
        <h1 className="page-title">{breachId ? `Fix ${breachId}` : 'Fix step by step'}</h1>
        {breachId ? (
          <a className="button button-small" href={formatHash({ screen: 'breaches', breachId, filters: EMPTY_FILTERS })}>
            Back to the breach
          </a>
        ) : null}
      </div>
      <p className="page-lead">
        {groups && left === 0 && groups.length > 0
          ? 'Everything here is marked fixed. New breaches will show up here after a sync.'
          : 'Start at the top: the most urgent data first. Follow the steps, then tick the addresses you did them for and mark the group done.'}
      </p>
      {breachId ? null : <StealerLogFix focus={fix?.group === 'stealer-logs'} />}
      {breachId ? null : <LoginsFix />}
      <SensitiveNote hidden={report?.hiddenSensitive} />
      {body}
      {report?.includesHibp ? <Credit /> : null}
    </div>
  );
}

function FixGroups({ groups, focusGroup, single }: { groups: FixGroupState[]; focusGroup: string | undefined; single: boolean }) {
  return (
    <ol className="fix-groups">
      {groups.map((group, index) => (
        <li key={group.id}>
          <FixGroupCard group={group} number={index + 1} focus={focusGroup === group.id} single={single} />
        </li>
      ))}
    </ol>
  );
}

function FixGroupCard({ group, number, focus, single }: { group: FixGroupState; number: number; focus: boolean; single: boolean }) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const done = group.unresolved === 0;
  const steps = stepsFor(group.spec, group.targets);
  const [message, setMessage] = useState<Message>();
  const emailsWithWork = useMemo(
    () => [...new Set(group.targets.flatMap((target) => target.unresolvedByEmail.filter((entry) => entry.dataClasses.length > 0).map((entry) => entry.email)))].sort(),
    [group.targets],
  );

  useEffect(() => {
    if (!focus || !heading.current) return;
    heading.current.scrollIntoView({ block: 'start' });
    heading.current.focus({ preventScroll: true });
  }, [focus]);

  return (
    <section className={done ? 'card fix-group is-done' : 'card fix-group'} aria-labelledby={headingId}>
      <div className="fix-group-head">
        <span className="fix-number" aria-hidden="true">
          {done ? <Icon name="check" size={16} /> : number}
        </span>
        <h2 id={headingId} className="card-title fix-title" ref={heading} tabIndex={-1}>
          {group.spec.title}
        </h2>
        <span className={done ? 'fix-status fix-status-done' : 'fix-status'}>{done ? 'Done' : `${formatCount(group.unresolved)} of ${plural(group.total, 'item')} left`}</span>
      </div>
      <p className="card-note">{group.spec.why}</p>
      <ol className="fix-steps">
        {steps.map((step) => (
          <li key={step.id}>
            {step.text}
            {step.site ? (
              <>
                {' '}
                <a className="fix-site" href={`https://${step.site}`} target="_blank" rel="noreferrer">
                  Open {step.site}
                  <Icon name="external" size={12} />
                </a>
              </>
            ) : null}
          </li>
        ))}
      </ol>
      {single ? <ExposedHere target={group.targets[0]} /> : <Targets targets={group.targets} />}
      {done ? null : <MarkDone group={group} emails={emailsWithWork} onMessage={setMessage} />}
      {/* Reserved and always present, so the answer is announced and nothing below moves twice. */}
      <p className={message?.kind === 'error' ? 'fix-message inline-error' : 'fix-message'} role="status">
        {message?.text ?? ''}
      </p>
    </section>
  );
}

/** One breach: which of its data classes this group covers. */
function ExposedHere({ target }: { target: FixTarget | undefined }) {
  if (!target) return null;
  return (
    <p className="fix-classes">
      <span className="fix-classes-label">Exposed here:</span> {target.dataClasses.join(', ')}
    </p>
  );
}

function Targets({ targets }: { targets: FixTarget[] }) {
  const [expanded, setExpanded] = useState(false);
  const open = targets.filter((target) => target.unresolved > 0);
  const shown = expanded ? open : open.slice(0, TARGETS_SHOWN);
  if (open.length === 0) return null;
  return (
    <div className="fix-targets">
      <h3 className="fix-targets-title">{plural(open.length, 'breach', 'breaches')} with something left</h3>
      <ul className="fix-target-list">
        {shown.map((target) => (
          <li key={target.breach.id} className="fix-target">
            <a href={formatHash({ screen: 'fix', fix: { breachId: target.breach.id }, filters: EMPTY_FILTERS })} className="fix-target-name">
              {target.breach.id}
            </a>
            {target.breach.domain ? <span className="fix-target-domain">{target.breach.domain}</span> : null}
            <span className="fix-target-classes">{[...new Set(target.unresolvedByEmail.flatMap((entry) => entry.dataClasses))].join(', ')}</span>
          </li>
        ))}
      </ul>
      {open.length > TARGETS_SHOWN ? (
        <button type="button" className="button button-ghost button-small" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
          {expanded ? 'Show fewer' : `Show all ${plural(open.length, 'breach', 'breaches')}`}
        </button>
      ) : null}
    </div>
  );
}

function MarkDone({ group, emails, onMessage }: { group: FixGroupState; emails: string[]; onMessage(message: Message | undefined): void }) {
  // Unticked addresses; every other address with something left is ticked (also ones a sync brings later).
  const [excluded, setExcluded] = useState<ReadonlySet<string>>(() => new Set());
  const [busy, setBusy] = useState(false);
  const online = useSync((s) => s.status?.online ?? true);
  const legendId = useId();
  const selected = useMemo(() => new Set(emails.filter((email) => !excluded.has(email))), [emails, excluded]);
  const intents = useMemo(() => fixIntents(group.targets, selected), [group.targets, selected]);
  const changes = intentSize(intents);

  async function markDone() {
    setBusy(true);
    onMessage(undefined);
    try {
      const { changed } = await applyFix(intents);
      onMessage({
        kind: 'ok',
        text: `Marked ${plural(changed, 'item')} of “${group.spec.title}” fixed. ${online ? 'They’re sent to the service at the next sync.' : 'You’re offline: they’ll be sent when the service can be reached.'}`,
      });
    } catch (error) {
      onMessage({ kind: 'error', text: `That didn’t go through: ${toUiError(error).message}` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="fix-done">
      <fieldset className="fix-emails" aria-labelledby={legendId}>
        <legend id={legendId} className="fix-emails-legend">
          I did this for
        </legend>
        {emails.map((email) => (
          <label key={email} className="check-inline">
            <input
              type="checkbox"
              className="checkbox"
              checked={selected.has(email)}
              onChange={(event) => {
                const next = new Set(excluded);
                if (event.target.checked) next.delete(email);
                else next.add(email);
                setExcluded(next);
              }}
            />
            <span className="truncate">{email}</span>
          </label>
        ))}
      </fieldset>
      <div className="fix-done-actions">
        <button type="button" className="button button-primary button-small" disabled={busy || changes === 0} onClick={() => void markDone()}>
          <Icon name="check" size={14} />
          Mark done: {group.spec.title}
        </button>
        <span className="fix-done-count">{changes === 0 ? 'Tick an address first' : `${plural(changes, 'item')} will be marked fixed`}</span>
      </div>
    </div>
  );
}
