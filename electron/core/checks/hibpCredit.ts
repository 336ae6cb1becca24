import type { BreachDataSource } from '../../../shared/api/index.ts';
import { readChecksView } from '../db/breachDataQueries.ts';
import type { ReadableDB } from '../db/Interface.ts';

/**
 * Whether breaches the account's service sent are Have I Been Pwned's data (CC BY 4.0, to be
 * credited), from what the service said of them: the `breach-data` header of its answers and the
 * `source` of `GET /user/checks` (shared/api/checks.ts), kept per account in `breach_data`.
 *
 * - `demo`: invented by a service started with `--demo`/`--dev` — ours, not credited, unless the
 *   checks answer names whom to credit (`attribution`: demo exposures over Have I Been Pwned's
 *   catalog file, whose titles and descriptions are shown).
 * - `hibp`: looked up with Have I Been Pwned — credited.
 * - `none`: no source now; what is still stored came from an earlier source, and never a demo one
 *   (demo exposures are removed when the source changes) — credited.
 * - unsaid: an older or another party's service speaking only the base contract, whose catalog
 *   is Have I Been Pwned's (CONTRACT.md) — credited. Crediting too often costs a line; too rarely
 *   breaks the licence.
 */
export function creditsHibp(source: BreachDataSource | undefined, attribution: string | null = null): boolean {
  return source !== 'demo' || attribution !== null;
}

/** {@link creditsHibp} for the account database's recorded source and last checks answer. */
export function accountCreditsHibp(db: ReadableDB): boolean {
  const view = readChecksView(db);
  return creditsHibp(view.source === 'unknown' ? undefined : view.source, view.checks?.attribution ?? null);
}
