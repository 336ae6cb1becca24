// The lookups the sync path repeats thousands of times must use an index, not a scan.
import { describe, expect, it } from 'vitest';
import type { ReadableDB } from '../../../electron/core/db/Interface.ts';
import { memoryDatabase } from '../helpers/fixtures.ts';

function plan(db: ReadableDB, sql: string, ...params: unknown[]): string {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail).join(' | ');
}

describe('query plans', () => {
  const ids = JSON.stringify(['A', 'B']);

  it.each([
    [
      'accounts of some breaches, with their confirmed state',
      'SELECT b.id, a.email, a.resolved_codes FROM breaches AS b JOIN breached_accounts AS a ON a.breach_key = b.key WHERE b.id IN (SELECT value FROM json_each(?))',
      /SEARCH b USING (COVERING )?INDEX sqlite_autoindex_breaches_1 \(id=\?\).*SEARCH a USING PRIMARY KEY \(breach_key=\?\)/,
    ],
    ['intents of some breaches', 'SELECT * FROM outbox WHERE breach_id IN (SELECT value FROM json_each(?))', /SEARCH outbox USING INDEX sqlite_autoindex_outbox_1 \(breach_id=\?\)/],
    ['one breach', 'SELECT * FROM breaches WHERE id = ?', /SEARCH breaches USING INDEX sqlite_autoindex_breaches_1 \(id=\?\)/],
  ])('%s', (_, sql, expected) => {
    expect(plan(memoryDatabase(), sql, sql.includes('id = ?') ? 'A' : ids)).toMatch(expected);
  });

  it('pending rows come from the state index', () => {
    expect(plan(memoryDatabase(), "SELECT * FROM outbox WHERE state = 'pending' ORDER BY id")).toMatch(/SEARCH outbox USING INDEX outbox_by_state \(state=\?\)/);
  });

  it('settling a delivered request finds each row by key', () => {
    expect(plan(memoryDatabase(), 'DELETE FROM outbox WHERE (id, version) IN (SELECT value->>0, value->>1 FROM json_each(?))', '[[1,1]]')).toMatch(/SEARCH outbox USING INTEGER PRIMARY KEY/);
  });
});
