import { afterEach } from 'vitest';
import type { Breach } from '../../../shared/api/index.ts';
import { TripleStore } from '../../../engine/graph/TripleStore.ts';

const opened: TripleStore[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

/** A fresh in-memory graph database, closed after the test. */
export function memoryGraph(): TripleStore {
  const store = TripleStore.open(':memory:');
  opened.push(store);
  return store;
}

export function breach(id: string, overrides: Partial<Breach> = {}): Breach {
  return {
    id,
    domain: `${id.toLowerCase()}.com`,
    breachDate: '2019-01-01',
    addedDate: '2019-02-01T10:00:00Z',
    modifiedDate: '2019-02-01T10:00:00Z',
    dataClasses: ['Email addresses', 'Passwords'],
    isSensitive: false,
    ...overrides,
  };
}

/** The small hand-made catalog the engine's expected answers are written against. */
export const CATALOG: Breach[] = [
  breach('Adobe', {
    domain: 'adobe.com',
    breachDate: '2013-10-04',
    addedDate: '2013-12-04T00:00:00Z',
    modifiedDate: '2022-05-15T23:52:00Z',
    dataClasses: ['Email addresses', 'Password hints', 'Passwords'],
  }),
  breach('AshleyMadison', {
    domain: 'ashleymadison.com',
    breachDate: '2015-07-19',
    addedDate: '2015-08-18T21:00:00Z',
    modifiedDate: '2015-08-18T21:00:00Z',
    dataClasses: ['Email addresses', 'Passwords', 'Sexual preferences'],
    isSensitive: true,
  }),
  breach('Collection1', {
    domain: '',
    breachDate: '2019-01-07',
    addedDate: '2019-01-16T21:46:00Z',
    modifiedDate: '2019-01-16T21:46:00Z',
    dataClasses: ['Email addresses', 'Passwords'],
  }),
];

export const P = 'breach-catalog';
