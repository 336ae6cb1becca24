import { readFileSync } from 'node:fs';
import type { Breach } from '../../../shared/api/breach.ts';
import { ALICE, BOB, FakeCore, type FakeBreach } from '../fakeCore.ts';

interface HibpBreach {
  Name: string;
  Domain: string;
  BreachDate: string;
  AddedDate: string;
  ModifiedDate: string;
  DataClasses: string[];
  IsSensitive: boolean;
}

const minute = (iso: string) => new Date(Date.parse(iso)).toISOString().slice(0, 16) + ':00Z';

/**
 * The fake core over the real Have I Been Pwned catalog (shared/fixtures), every breach
 * affecting one or both demo addresses, some already resolved: a realistic amount of data for
 * looking at the screens in a browser.
 */
export function hibpFakeCore(fixture: string, limit = Infinity): FakeCore {
  const catalog = (JSON.parse(readFileSync(fixture, 'utf8')) as HibpBreach[]).slice(0, limit);
  const breaches: FakeBreach[] = catalog.map((entry, i) => {
    const breach: Breach = {
      id: entry.Name,
      domain: entry.Domain,
      breachDate: entry.BreachDate,
      addedDate: minute(entry.AddedDate),
      modifiedDate: minute(entry.ModifiedDate),
      dataClasses: [...new Set(entry.DataClasses)].sort(),
      isSensitive: entry.IsSensitive,
    };
    const accounts: FakeBreach['accounts'] = {};
    const emails = i % 3 === 0 ? [ALICE, BOB] : [i % 2 === 0 ? ALICE : BOB];
    for (const email of emails) {
      accounts[email] = {};
      breach.dataClasses.forEach((name, j) => {
        if ((i + j) % 4 === 0) (accounts[email] as Record<string, { resolvedAt?: string }>)[name] = { resolvedAt: '2025-11-02T10:15:00Z' };
      });
    }
    return { breach, accounts, isNew: i % 97 === 5 };
  });
  return new FakeCore({ breaches });
}
