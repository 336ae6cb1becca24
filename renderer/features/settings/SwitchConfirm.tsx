import type { ApiContract } from '../../../shared/api/firefox.ts';
import { plural } from '../../lib/format.ts';
import { useSettings } from '../../state/settings.ts';
import { useSync } from '../../state/sync.ts';
import { ConfirmPanel } from '../../components/ConfirmPanel.tsx';

/**
 * The one question before switching service or contract while signed in, and what happens to
 * the person's queued changes: they stay with the account on this computer and the outbox
 * re-decides, under the contract it is opened with, which it can send (the newer contract
 * resolves only passwords and email addresses, and never undoes), keeping the rest here.
 */
export function SwitchConfirm(props: { contractOnly: boolean; to: ApiContract; onConfirm(): void; onCancel(): void }) {
  const pending = useSync((s) => s.status?.pending ?? 0);
  const localOnly = useSync((s) => s.status?.localOnly ?? 0);
  const switching = useSettings((s) => s.switching);
  const title = props.contractOnly ? 'Switch the API contract?' : 'Switch to another service?';
  const queued =
    pending === 0
      ? null
      : props.to === 'firefox-v1'
        ? `Your ${plural(pending, 'queued change')} stay on this computer. Those the newer contract can carry (passwords and email addresses marked as dealt with) are sent once you’re signed in again; the rest stay here, marked “kept on this computer”, until you switch back.`
        : `Your ${plural(pending, 'queued change')} stay on this computer and are sent once you’re signed in again.`;
  const kept = props.to === 'v1' && localOnly > 0 ? `${plural(localOnly, 'change')} kept on this computer under the newer contract will be sent under the original one.` : null;
  return (
    <ConfirmPanel title={title} confirmLabel="Switch and sign in again" busyLabel="Switching…" busy={switching} tone="primary" onConfirm={props.onConfirm} onCancel={props.onCancel}>
      <p>You’ll be signed out, the switch is saved, and signing in starts again at once. Your breaches stay on this computer.</p>
      {queued ? <p>{queued}</p> : null}
      {kept ? <p>{kept}</p> : null}
    </ConfirmPanel>
  );
}
