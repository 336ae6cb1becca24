/**
 * The lookup queue at a million addresses (issue 39, `npm run bench:scale`): each worker turn asks
 * when the next lookup falls due and claims the most urgent one, and with only `address_checks_due`
 * both read every due row (or every row) and sort them, so a claim took time in proportion to the
 * addresses waiting. These indexes hold the rows in the order each question asks, so the answer is
 * the first entry that qualifies: new addresses oldest first, re-checks longest-unchecked first,
 * and `min(GREATEST(due_at, lease_until))` as the first entry of an index on that expression
 * (PostgreSQL answers `min` from an index on the same expression).
 * Released: never edited, only followed (server/store/postgres/migrations/index.ts).
 */
export const lookupQueueOrderIndexesSql = `
      CREATE INDEX address_checks_fresh_order ON address_checks (added_at, email COLLATE "C") WHERE checked_at IS NULL AND NOT via_domain;
      CREATE INDEX address_checks_recheck_order ON address_checks (checked_at, email COLLATE "C") WHERE checked_at IS NOT NULL AND NOT via_domain;
      CREATE INDEX address_checks_next_due ON address_checks ((GREATEST(due_at, lease_until))) WHERE NOT via_domain AND due_at IS NOT NULL;
      CREATE INDEX address_checks_next_stealer_due ON address_checks ((GREATEST(stealer_due_at, lease_until))) WHERE stealer_due_at IS NOT NULL;
    `;
