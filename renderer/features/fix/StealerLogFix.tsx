import { useEffect, useId, useRef } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { useChecks } from '../../state/checks.ts';
import { STEALER_LOG_FIX } from '../../../shared/report/fixSteps.ts';
import { HibpExposureCredit } from '../checks/AddressChecks.tsx';
import { stealerLine } from '../checks/checksText.ts';

/**
 * The guided fix for Have I Been Pwned's stealer logs, first on the page when there are any:
 * the device before the passwords (a new password typed on an infected computer is captured
 * too). Steps come from shared/report/fixSteps.ts; each captured site gets its own link.
 */
const NONE: never[] = [];

export function StealerLogFix({ focus }: { focus: boolean }) {
  // Selected as stored (a fresh [] per read would re-render without end).
  const entries = useChecks((s) => s.view.checks?.stealerLogs.entries) ?? NONE;
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!focus || !heading.current) return;
    heading.current.scrollIntoView({ block: 'start' });
    heading.current.focus({ preventScroll: true });
  }, [focus, entries.length]);
  if (entries.length === 0) return null;
  const sites = [...new Set(entries.flatMap((entry) => entry.domains))].sort();
  return (
    <section className="card fix-group stealer-fix" aria-labelledby={headingId}>
      <div className="fix-group-head">
        <span className="fix-number" aria-hidden="true">
          <Icon name="lock" size={16} />
        </span>
        <h2 id={headingId} className="card-title fix-title" ref={heading} tabIndex={-1}>
          {STEALER_LOG_FIX.title}
        </h2>
      </div>
      {entries.map((entry) => (
        <p key={entry.email} className="stealer-line">
          <strong>{stealerLine(entry.domains)}</strong> ({entry.email}).
        </p>
      ))}
      <p className="card-note">{STEALER_LOG_FIX.why}</p>
      <ol className="fix-steps">
        {STEALER_LOG_FIX.steps.map((step) => (
          <li key={step.id}>
            {step.text.replaceAll('{site}', sites.length === 1 ? sites[0]! : 'each of these sites')}
            {'linkToSite' in step && step.linkToSite ? (
              <span className="stealer-sites">
                {sites.map((site) => (
                  <a key={site} className="fix-site" href={`https://${site}`} target="_blank" rel="noreferrer">
                    Open {site}
                    <Icon name="external" size={12} />
                  </a>
                ))}
              </span>
            ) : null}
          </li>
        ))}
      </ol>
      <HibpExposureCredit what="Stealer logs" />
    </section>
  );
}
