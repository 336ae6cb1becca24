import type { BreachDetails } from '../../../shared/catalog/index.ts';

const FLAGS: { key: keyof BreachDetails; label: string; tone: 'warn' | 'info' }[] = [
  { key: 'isFabricated', label: 'Fabricated', tone: 'warn' },
  { key: 'isSpamList', label: 'Spam list', tone: 'warn' },
  { key: 'isRetired', label: 'Retired', tone: 'warn' },
  { key: 'isMalware', label: 'Malware', tone: 'info' },
  { key: 'isStealerLog', label: 'Stealer log', tone: 'info' },
];

/** The catalog's flags on a breach, as badges; "Verified" or "Unverified" always shows. */
export function BreachFlags({ details }: { details: BreachDetails }) {
  return (
    <ul className="breach-flags" aria-label="Catalog flags">
      <li className={`badge ${details.isVerified ? 'badge-verified' : 'badge-unverified'}`}>{details.isVerified ? 'Verified' : 'Unverified'}</li>
      {FLAGS.filter((flag) => details[flag.key] === true).map((flag) => (
        <li key={flag.key} className={`badge badge-flag badge-${flag.tone}`}>
          {flag.label}
        </li>
      ))}
    </ul>
  );
}

export function formatCount(count: number): string {
  return new Intl.NumberFormat('en-US').format(count);
}
