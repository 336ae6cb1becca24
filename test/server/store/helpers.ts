import type { Breach } from '../../../shared/api/index.ts';
import { openSqliteBreachStore, type SqliteBreachStore } from '../../../server/breaches/SqliteBreachStore.ts';

export function breach(id: string, overrides: Partial<Breach> = {}): Breach {
  return {
    id,
    domain: `${id.toLowerCase()}.com`,
    breachDate: '2019-01-01',
    addedDate: '2019-02-01T10:00:00Z',
    modifiedDate: '2019-02-01T10:00:00Z',
    dataClasses: ['Email addresses', 'IP addresses', 'Passwords'],
    isSensitive: false,
    ...overrides,
  };
}

export function memoryStore(catalog: readonly Breach[] = []): SqliteBreachStore {
  const store = openSqliteBreachStore(':memory:');
  if (catalog.length > 0) store.replaceCatalog(catalog);
  return store;
}
