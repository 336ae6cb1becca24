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

  it('the claim reads pending rows in the order it packs them, without a sort, and keeps no index on state up to date', () => {
    const claim = plan(memoryDatabase(), "SELECT id FROM outbox WHERE state = 'pending' ORDER BY breach_id, email, class_key");
    expect(claim).toMatch(/SCAN outbox USING INDEX sqlite_autoindex_outbox_1/);
    expect(claim).not.toMatch(/TEMP B-TREE/);
    expect(memoryDatabase().prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'outbox'").pluck().all()).toEqual(['sqlite_autoindex_outbox_1']);
  });

  it('settling a delivered request finds each row by key', () => {
    expect(plan(memoryDatabase(), 'DELETE FROM outbox WHERE id IN (SELECT value FROM json_each(?)) AND version = sent_version', '[1]')).toMatch(/SEARCH outbox USING INTEGER PRIMARY KEY/);
  });
});
