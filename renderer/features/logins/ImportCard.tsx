import { useEffect, useId, useRef, useState } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { TextField } from '../../components/TextField.tsx';
import { filePathChooser } from '../../lib/core.ts';
import { useLogins } from '../../state/logins.ts';
import { ExportFilePath } from '../../../shared/ipc/logins.ts';
import { DeleteExportOffer } from './DeleteExportOffer.tsx';
import { knownFormats, progressLine, resultLines, skippedLine } from './loginsText.ts';

/** The path in words when it is not one the core would take, else undefined (the schema's messages, e.g. "must be an absolute path, …"). */
function pathProblem(path: string): string | undefined {
  const checked = ExportFilePath.safeParse(path);
  if (checked.success) return undefined;
  const message = checked.error.issues[0]?.message ?? 'is not a path';
  return path === '' ? 'Type the path of the export file.' : `The path ${message}.`;
}

/**
 * Where an import starts: what is read, kept and sent, in a few sentences; the file (chosen in a
 * file input where the host can tell its path, typed where it cannot); its progress with Cancel;
 * what it did; and the offer to delete the export. The page never reads the file: only its path
 * goes to the core.
 */
export function ImportCard() {
  const id = useId();
  const running = useLogins((s) => s.running);
  const outcome = useLogins((s) => s.outcome);
  const importFrom = useLogins((s) => s.importFrom);
  const cancelImport = useLogins((s) => s.cancelImport);
  const pathOf = filePathChooser();
  const [path, setPath] = useState('');
  const [problem, setProblem] = useState<string>();
  const cancelButton = useRef<HTMLButtonElement>(null);
  const outcomeLine = useRef<HTMLDivElement>(null);
  const wasRunning = useRef(false);

  // Focus follows the import: to Cancel while it runs, to what it did once it ends.
  useEffect(() => {
    if (running && !wasRunning.current) cancelButton.current?.focus();
    if (!running && wasRunning.current) outcomeLine.current?.focus();
    wasRunning.current = running !== undefined;
  }, [running]);

  const fieldError = problem ?? (outcome?.kind === 'failed' ? outcome.field : undefined);

  function start() {
    const typed = path.trim();
    const wrong = pathProblem(typed);
    setProblem(wrong);
    if (wrong) return;
    void importFrom(typed);
  }

  return (
    <section className="card logins-import" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card-title">
        Import your password manager’s export
      </h2>
      <p>Breach Monitor reads the export file where it is on this computer. It knows {knownFormats()}, and tells them apart by their content.</p>
      <p>
        It keeps each login’s site, username and findings, with a keyed fingerprint of the password to spot reuse, never the password itself. Only the first 5 characters of each password’s SHA-1 hash
        go to Pwned Passwords; nothing else leaves this computer.
      </p>
      <form
        className="logins-import-form"
        aria-label="Import an export"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          start();
        }}
      >
        {pathOf ? (
          <FileChooser
            id={`${id}-file`}
            path={path}
            error={fieldError}
            disabled={running !== undefined}
            onChoose={(file) => {
              // Only the path is taken: the file's content is never read here.
              const chosen = pathOf(file);
              setPath(chosen);
              setProblem(chosen === '' ? 'This file is not on this computer’s disk: choose the export file itself.' : undefined);
            }}
          />
        ) : (
          <TextField
            id={`${id}-path`}
            label="Path of the export file"
            value={path}
            onChange={(value) => {
              setPath(value);
              setProblem(undefined);
            }}
            error={fieldError}
            placeholder="/home/you/Downloads/passwords.csv"
            hint="A browser never tells the app where a file is: type or paste the file’s full path."
          />
        )}
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={running !== undefined}>
            <Icon name="download" size={14} />
            Import
          </button>
        </div>
      </form>
      {running ? (
        <div className="logins-progress">
          <p role="status">{running.cancelling ? 'Cancelling the import…' : progressLine(running.progress)}</p>
          {running.progress?.total ? (
            <progress className="progress logins-progress-bar" aria-label="Import progress" value={running.progress.done} max={running.progress.total} />
          ) : (
            <span className="progress-indeterminate logins-progress-bar" role="progressbar" aria-label="Import progress" />
          )}
          <button ref={cancelButton} type="button" className="button button-small" disabled={running.cancelling} onClick={() => void cancelImport()}>
            Cancel import
          </button>
        </div>
      ) : null}
      <div ref={outcomeLine} tabIndex={-1} className="logins-outcome">
        {outcome?.kind === 'done' ? <ImportResult path={outcome.path} result={outcome.result} /> : null}
        {outcome?.kind === 'cancelled' ? (
          <p className="form-note" role="status">
            {outcome.message}
          </p>
        ) : null}
        {outcome?.kind === 'failed' && !outcome.field ? (
          <p className="form-error" role="alert">
            <Icon name="alert" />
            <span>
              <strong>The export couldn’t be imported.</strong> {outcome.message}
            </span>
          </p>
        ) : null}
      </div>
    </section>
  );
}

function FileChooser({ id, path, error, disabled, onChoose }: { id: string; path: string; error: string | undefined; disabled: boolean; onChoose(file: File): void }) {
  const describedBy = [`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        Export file
      </label>
      <input
        id={id}
        className="input logins-file"
        type="file"
        accept=".csv,.json,.1pux,text/csv,application/json"
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) onChoose(file);
        }}
      />
      <p className="field-hint" id={`${id}-hint`}>
        {path ? `Chosen: ${path}` : 'The file your password manager saved, usually in Downloads.'}
      </p>
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          <Icon name="alert" size={14} /> {error}
        </p>
      ) : null}
    </div>
  );
}

function ImportResult({ path, result }: { path: string; result: Parameters<typeof resultLines>[0] }) {
  const skipped = skippedLine(result);
  return (
    <div className="logins-result">
      <div role="status">
        {resultLines(result).map((line) => (
          <p key={line}>{line}</p>
        ))}
        {skipped ? <p className="muted">{skipped}</p> : null}
      </div>
      <DeleteExportOffer key={result.importId} path={path} />
    </div>
  );
}
