import { useId, useState } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { useLogins } from '../../state/logins.ts';

type OfferState = { kind: 'offered' } | { kind: 'deleting' } | { kind: 'kept' } | { kind: 'answered'; deleted: boolean; message: string };

/**
 * After an import, the export file is offered for deletion, never deleted unasked: it holds
 * every password in clear text, and the app has what it needs from it.
 */
export function DeleteExportOffer({ path }: { path: string }) {
  const id = useId();
  const deleteExport = useLogins((s) => s.deleteExport);
  const [state, setState] = useState<OfferState>({ kind: 'offered' });

  async function deleteNow() {
    setState({ kind: 'deleting' });
    try {
      const answer = await deleteExport(path);
      setState({ kind: 'answered', deleted: answer.deleted, message: answer.deleted ? 'The export file was deleted.' : (answer.message ?? 'The export file was not deleted.') });
    } catch (error) {
      setState({ kind: 'answered', deleted: false, message: (error as Error).message });
    }
  }

  if (state.kind === 'kept') return <p className="muted">The export file stays where it is. Delete it yourself once you no longer need it.</p>;
  if (state.kind === 'answered')
    return (
      <p className={state.deleted ? 'form-note' : 'form-error'} role={state.deleted ? 'status' : 'alert'}>
        <Icon name={state.deleted ? 'check' : 'alert'} /> {state.message}
      </p>
    );
  return (
    <div className="logins-delete-offer" role="group" aria-labelledby={`${id}-title`} aria-describedby={`${id}-why`}>
      <p className="logins-delete-title" id={`${id}-title`}>
        Delete the export file?
      </p>
      <p id={`${id}-why`}>
        <span className="logins-path">{path}</span> holds every password in clear text: anyone, or any program, that can read your files can read them. Breach Monitor has what it needs and won’t read
        it again.
      </p>
      <div className="form-actions">
        <button type="button" className="button button-danger button-small" disabled={state.kind === 'deleting'} onClick={() => void deleteNow()}>
          {state.kind === 'deleting' ? 'Deleting…' : 'Delete the export file'}
        </button>
        <button type="button" className="button button-ghost button-small" disabled={state.kind === 'deleting'} onClick={() => setState({ kind: 'kept' })}>
          Keep it
        </button>
      </div>
    </div>
  );
}
