import Database from 'better-sqlite3';
import type { Database as SqliteDatabase } from 'better-sqlite3';

/**
 * The first versioned migration of a SQLite file that code before versioned migrations created
 * with `CREATE … IF NOT EXISTS` on every open, leaving it at `user_version` 0: `ddl` is that same
 * text, so its IF NOT EXISTS adopts the tables and indexes such a file holds, and creates them in a
 * new file. Adoption is of that exact schema only: an object of the same name made by anything
 * else is refused, not taken for the one expected. Later migrations create plainly.
 */
export function createOrAdopt(db: SqliteDatabase, ddl: string): void {
  const expected = new Database(':memory:');
  let wanted: Map<string, string>;
  try {
    expected.exec(ddl);
    wanted = schemaObjects(expected);
  } finally {
    expected.close();
  }
  const present = schemaObjects(db);
  for (const [name, sql] of wanted) {
    const found = present.get(name);
    if (found !== undefined && normalized(found) !== normalized(sql)) {
      throw new Error(`${db.name}: ${name} exists but is not the schema this version adopts (found ${JSON.stringify(found)}, expected ${JSON.stringify(sql)})`);
    }
  }
  db.exec(ddl);
}

/** Tables and indexes by name, with the statement SQLite keeps for each (IF NOT EXISTS dropped). */
function schemaObjects(db: SqliteDatabase): Map<string, string> {
  const rows = db.prepare<[], { name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'index') AND sql IS NOT NULL").all();
  return new Map(rows.map((row) => [row.name, row.sql]));
}

function normalized(sql: string): string {
  return sql.replace(/\s+/g, ' ').trim();
}
