/**
 * The breach-data source's lookup queue and rate budget, shared by every instance (see server/hibp
 * and SQLite's migration 30). Times are milliseconds since the epoch.
 * Released: never edited, only followed (server/storage/migrations/index.ts).
 */
export const lookupQueueSql = `
      CREATE TABLE address_checks (
        email text PRIMARY KEY CHECK (email <> '' AND email = lower(email)),
        domain text NOT NULL,
        added_at bigint NOT NULL,
        seen_at bigint NOT NULL,
        checked_at bigint,
        due_at bigint,
        breach_count integer CHECK (breach_count IS NULL OR breach_count >= 0),
        via_domain boolean NOT NULL,
        problem text,
        stealer_due_at bigint,
        stealer_checked_at bigint,
        stealer_domains jsonb CHECK (stealer_domains IS NULL OR jsonb_typeof(stealer_domains) = 'array'),
        lease_until bigint NOT NULL DEFAULT 0,
        lease_owner text
      );
      CREATE INDEX address_checks_due ON address_checks (due_at) WHERE due_at IS NOT NULL;
      CREATE INDEX address_checks_stealer_due ON address_checks (stealer_due_at) WHERE stealer_due_at IS NOT NULL;
      CREATE INDEX address_checks_domain ON address_checks (domain);

      CREATE TABLE searched_domains (
        domain text PRIMARY KEY CHECK (domain <> '' AND domain = lower(domain)),
        checked_at bigint,
        due_at bigint,
        problem text,
        lease_until bigint NOT NULL DEFAULT 0,
        lease_owner text
      );

      CREATE TABLE source_requests (sent_at bigint NOT NULL);
      CREATE INDEX source_requests_sent_at ON source_requests (sent_at);

      CREATE TABLE source_state (
        id integer PRIMARY KEY CHECK (id = 1),
        rpm integer CHECK (rpm IS NULL OR rpm >= 1),
        blocked_until bigint NOT NULL DEFAULT 0,
        backoff_until bigint NOT NULL DEFAULT 0,
        failures integer NOT NULL DEFAULT 0,
        stealer_logs boolean NOT NULL DEFAULT false,
        problem_code text,
        problem_detail text,
        in_flight_id text,
        in_flight_until bigint NOT NULL DEFAULT 0
      );
      INSERT INTO source_state (id) VALUES (1);
    `;
