import { useState } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { dismissCatalogNotice } from '../../state/catalogNotice.ts';
import type { CatalogNotice as Notice } from '../../../shared/ipc/views.ts';

/**
 * What the service's catalog switch did to this account (breaches removed from the catalog,
 * invented demo breaches removed), said until the person dismisses it: a switch never changes
 * someone's list without a word.
 */
export function CatalogNotice({ notice, onDismissed }: { notice: Notice; onDismissed(): void }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const dismiss = async () => {
    setBusy(true);
    const failure = await dismissCatalogNotice(notice.upTo);
    setBusy(false);
    setError(failure === undefined ? undefined : `Couldn’t dismiss: ${failure}`);
    if (failure === undefined) onDismissed();
  };
  return (
    <section className="notice notice-pending catalog-notice" aria-label="Catalog changes" role="status">
      <Icon name="alert" />
      <div className="notice-body">
        {notice.lines.map((line, index) => (
          <p key={index}>{line}</p>
        ))}
        {error ? <p className="inline-error">{error}</p> : null}
        <div className="notice-actions">
          <button type="button" className="button" aria-busy={busy} disabled={busy} onClick={() => void dismiss()}>
            Dismiss catalog changes
          </button>
        </div>
      </div>
    </section>
  );
}
