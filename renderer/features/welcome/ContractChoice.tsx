import { useId } from 'react';
import type { ApiContract } from '../../../shared/api/firefox.ts';

/** The two contracts in plain words: what each lets a person do, then where it lives. */
const CONTRACTS: { value: ApiContract; title: string; detail: string }[] = [
  {
    value: 'v1',
    title: 'Breach Alerts API (the original)',
    detail: 'Mark any kind of leaked data as dealt with, or undo it; syncs as often as you set. The service’s /api/v1.',
  },
  {
    value: 'firefox-v1',
    title: 'Mozilla Monitor for Firefox (the newer one)',
    detail:
      'The contract Firefox’s Monitor speaks: only leaked passwords and email addresses can be marked as dealt with (other changes stay on this computer), and it syncs at most once an hour. /api/firefox/v1 at the same site.',
  },
];

/** Which contract of the breach-alert service the app talks: the same person and breaches through either. */
export function ContractChoice(props: { value: ApiContract; onChange(value: ApiContract): void; disabled?: boolean }) {
  const id = useId();
  return (
    <fieldset className="fieldset" disabled={props.disabled}>
      <legend className="field-label">API contract</legend>
      {CONTRACTS.map((contract) => (
        <label key={contract.value} className="radio-card">
          <input type="radio" name={`${id}-contract`} value={contract.value} checked={props.value === contract.value} onChange={() => props.onChange(contract.value)} />
          <span>
            <span className="radio-card-title">{contract.title}</span>
            <span className="radio-card-detail">{contract.detail}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
