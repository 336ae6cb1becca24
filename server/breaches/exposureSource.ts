import type { AddressCheck, Breach, BreachDataSource, UserChecks } from '../../shared/api/index.ts';
import { demoExposuresFor } from '../catalog/exposures.ts';
import type { BreachStore } from './BreachStore.ts';

/** Which of a set of addresses a source has no answer for yet: what the response headers say. */
export interface Pending {
  source: BreachDataSource;
  /** Addresses not checked yet: unknown, never clean (the `breach-checks-pending` header). */
  pending: string[];
  /**
   * What the source's `checks` answer is built from beyond the store's change stamp of the
   * addresses (HIBP: the check rows and the source's state), as a string that moves when it does;
   * absent when the store's stamp covers it all. Keeps the follow-up versions (followUpVersions.ts).
   */
  stamp?: string;
}

/** What a source knows about a set of addresses, for one answer. */
export interface Knowledge extends Pending {
  /** Breach ids per address the source has answered for; addresses it has not are absent. */
  exposures: Map<string, string[]>;
}

/**
 * Where a service's exposures come from: Have I Been Pwned (`server/hibp`), invented demo data
 * (only with `--demo`/`--dev`), or nothing. The service asks it on every answer that carries
 * exposures, and says which it is (`breach-data` header).
 */
export interface ExposureSource {
  readonly kind: BreachDataSource;
  /** What is known about `emails` (lower case); may start looking up the ones it does not know. */
  know(emails: readonly string[], catalog: () => Promise<Breach[]>): Promise<Knowledge>;
  /** Only which of `emails` are not known yet (cheaper than {@link know}: read on every answer, cached or not). */
  pending(emails: readonly string[]): Promise<Pending>;
  /** `GET /user/checks` for `emails`. */
  checks(emails: readonly string[], catalog: () => Promise<Breach[]>): Promise<UserChecks>;
}

/**
 * `--demo`: an address seen for the first time gets its deterministic invented set of breaches,
 * stored so later catalog changes do not move it. Everything is "checked" at once.
 * `attribution`: whom the catalog the invented exposures point into belongs to — Have I Been
 * Pwned's for `--catalog <HIBP file>` (its titles and descriptions are shown, and credited), none
 * for the generated demo catalog.
 */
export class DemoExposures implements ExposureSource {
  readonly kind = 'demo';
  readonly #store: BreachStore;
  readonly #now: () => Date;
  readonly #attribution: string | null;
  /**
   * When this process first found each address's invented exposures: the answer's `checkedAt`,
   * so it stands still between answers (it is part of what the checks' version digests). Not in
   * the store: another instance, or a restart, says its own time once.
   */
  readonly #storedAt = new Map<string, string>();

  constructor(store: BreachStore, now: () => Date = () => new Date(), attribution: string | null = null) {
    this.#store = store;
    this.#now = now;
    this.#attribution = attribution;
  }

  async know(emails: readonly string[], catalog: () => Promise<Breach[]>): Promise<Knowledge> {
    const known = await this.#store.getExposures(emails);
    for (const email of emails) {
      if (known.has(email)) continue;
      const ids = demoExposuresFor(email, await catalog());
      await this.#store.setExposures(email, ids, true);
      known.set(email, ids);
    }
    return { source: 'demo', exposures: known, pending: [] };
  }

  /** Demo data is invented on first sight, so nothing is ever pending. */
  async pending(): Promise<Pending> {
    return { source: 'demo', pending: [] };
  }

  async checks(emails: readonly string[], catalog: () => Promise<Breach[]>): Promise<UserChecks> {
    const { exposures } = await this.know(emails, catalog);
    const at = this.#now().toISOString();
    const storedAt = (email: string): string => {
      let known = this.#storedAt.get(email);
      if (known === undefined) this.#storedAt.set(email, (known = at));
      return known;
    };
    return {
      source: 'demo',
      attribution: this.#attribution,
      addresses: emails.map((email): AddressCheck => ({
        email,
        state: 'checked',
        checkedAt: storedAt(email),
        nextCheckAt: null,
        breachCount: exposures.get(email)?.length ?? 0,
        viaDomainSearch: false,
      })),
      queue: { requestsPerMinute: null, waiting: 0, nextCheckAt: null },
      stealerLogs: { available: false, entries: [] },
      problem: null,
    };
  }
}

export const NO_SOURCE_DETAIL =
  'This service has no breach-data source, so it knows nothing about any address: start it with --hibp-api-key KEY (or BREACH_SERVICE_HIBP_API_KEY) to check addresses with Have I Been Pwned, or with --demo for invented demo data.';

/** No key and no `--demo`: nothing is known, nothing is invented, every address is pending. */
export class NoExposures implements ExposureSource {
  readonly kind = 'none';

  async know(emails: readonly string[]): Promise<Knowledge> {
    return { source: 'none', exposures: new Map(), pending: [...emails] };
  }

  async pending(emails: readonly string[]): Promise<Pending> {
    return { source: 'none', pending: [...emails] };
  }

  async checks(emails: readonly string[]): Promise<UserChecks> {
    return {
      source: 'none',
      attribution: null,
      addresses: emails.map((email): AddressCheck => ({ email, state: 'pending', checkedAt: null, nextCheckAt: null, breachCount: null, viaDomainSearch: false })),
      queue: { requestsPerMinute: null, waiting: 0, nextCheckAt: null },
      stealerLogs: { available: false, entries: [] },
      problem: { code: 'no-source', detail: NO_SOURCE_DETAIL },
    };
  }
}
