// The people of bench:scale, written straight into the service's PostgreSQL database on the
// server side (INSERT … SELECT over generate_series): no rows travel from Node, so a million
// people take minutes, not hours. The rows are what the service itself leaves after everyone signed
// in once and Have I Been Pwned answered for every address: an account per person with two
// addresses, a monitoring user, an exposure record and the exposures of each address, a
// resolution on a third of them, their change revisions, and their lookup-queue rows (checked,
// due again in a week, asked about now).
import type pg from 'pg';

/** Person `p`'s subject; its addresses are `addressOf(2p)` and `addressOf(2p + 1)`. */
export function subOf(person: number): string {
  return `scale-${person}`;
}

/** Address number `a` (person `a >> 1`), on one of 1,000 domains. */
export function addressOf(a: number): string {
  return `p${a >> 1}-${a & 1 ? 'b' : 'a'}@d${(a >> 1) % 1000}.example`;
}

/** The breaches address `a` is in: 1 to 5 of them (3 on average), by the seed's formula. */
export function breachesOf(a: number, ids: readonly string[]): string[] {
  const count = 1 + (a % 5);
  return Array.from({ length: count }, (_, j) => ids[(a * 7 + j * 131) % ids.length]!);
}

/** The same formulas in SQL (`a` is the address number; `$ids` the breach ids, 1-based). */
const ADDRESS_SQL = (a: string) => `'p' || (${a} >> 1) || '-' || CASE WHEN ${a} & 1 = 1 THEN 'b' ELSE 'a' END || '@d' || ((${a} >> 1) % 1000) || '.example'`;

/** How many rows go in one statement: large enough to be bulk, small enough to show progress. */
const CHUNK_PEOPLE = 100_000;
const DAY_MS = 24 * 3600 * 1000;

/**
 * Seeds `people` people whose addresses are in breaches of `ids` (at least 600, so an address's
 * breaches are distinct). Times are set against `now`. Answers how long it took (ms).
 */
export async function seedPeople(client: pg.ClientBase, people: number, ids: readonly string[], now: number, log: (line: string) => void): Promise<number> {
  if (ids.length < 600) throw new Error(`the catalog has ${ids.length} breaches with email addresses; the seed needs 600`);
  const started = performance.now();
  for (let from = 0; from < people; from += CHUNK_PEOPLE) {
    const to = Math.min(people, from + CHUNK_PEOPLE) - 1;
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO accounts (sub, emails, deleted)
       SELECT 'scale-' || p, jsonb_build_array(${ADDRESS_SQL('(2 * p)')}, ${ADDRESS_SQL('(2 * p + 1)')}), false FROM generate_series($1::bigint, $2::bigint) AS p`,
      [from, to],
    );
    await client.query(`INSERT INTO users (sub, created_at) SELECT 'scale-' || p, $3 FROM generate_series($1::bigint, $2::bigint) AS p`, [from, to, new Date(now - 30 * DAY_MS).toISOString()]);
    const addresses = [2 * from, 2 * to + 1];
    await client.query(`INSERT INTO exposure_records (email, invented) SELECT ${ADDRESS_SQL('a')}, false FROM generate_series($1::bigint, $2::bigint) AS a`, addresses);
    await client.query(
      `INSERT INTO exposures (email, breach_id)
       SELECT ${ADDRESS_SQL('a')}, ($3::text[])[1 + (a * 7 + j * 131) % cardinality($3::text[])]
       FROM generate_series($1::bigint, $2::bigint) AS a, LATERAL generate_series(0, (a % 5)::int) AS j`,
      [...addresses, ids],
    );
    // A third of the addresses resolved the first breach's "Email addresses" (every seeded breach has it).
    await client.query(
      `INSERT INTO resolutions (email, breach_id, data_class_key, data_class, resolved_at)
       SELECT ${ADDRESS_SQL('a')}, ($3::text[])[1 + (a * 7) % cardinality($3::text[])], 'email-addresses', 'Email addresses', $4
       FROM generate_series($1::bigint, $2::bigint) AS a WHERE a % 3 = 0`,
      [...addresses, ids, new Date(now - 2 * DAY_MS).toISOString()],
    );
    await client.query(`INSERT INTO email_revisions (email, revision) SELECT ${ADDRESS_SQL('a')}, nextval('change_counter') FROM generate_series($1::bigint, $2::bigint) AS a`, addresses);
    // Checked within the last six days (spread over them), due again a week after its check.
    await client.query(
      `INSERT INTO address_checks (email, domain, added_at, seen_at, checked_at, due_at, breach_count, via_domain)
       SELECT ${ADDRESS_SQL('a')}, 'd' || ((a >> 1) % 1000) || '.example', $3::bigint - ${30 * DAY_MS}, $3::bigint,
              c, c + ${7 * DAY_MS}, 1 + (a % 5)::int, false
       FROM generate_series($1::bigint, $2::bigint) AS a, LATERAL (SELECT $3::bigint - ${DAY_MS} - (a * 7919) % ${5 * DAY_MS} AS c) AS checked`,
      [...addresses, now],
    );
    await client.query('COMMIT');
    log(`  seeded ${to + 1} of ${people} people (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  // What autovacuum would do on its own soon after: statistics for the planner, the visibility map;
  // and the checkpoint the writes call for, now rather than in the middle of a measurement.
  await client.query('VACUUM ANALYZE');
  await client.query('CHECKPOINT');
  return performance.now() - started;
}

/**
 * Makes `count` addresses wait for their first lookup (never checked, due now), spread over the
 * address range: the queue as it stands after that many people signed in at once.
 */
export async function makeWaiting(client: pg.ClientBase, addresses: number, count: number, now: number): Promise<void> {
  const step = Math.max(1, Math.floor(addresses / count));
  await client.query(
    `UPDATE address_checks SET checked_at = NULL, breach_count = NULL, due_at = $2, added_at = $2 - (a % 1000)
     FROM generate_series(0, $1::bigint - 1) AS a
     WHERE a % $3 = 0 AND a / $3 < $4 AND email = ${ADDRESS_SQL('a')}`,
    [addresses, now, step, count],
  );
  await client.query('ANALYZE address_checks');
}
