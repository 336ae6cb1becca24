/**
 * A person's addresses (`/user/emails`): see SQLite's migration 50 for each table's reason.
 * Released: never edited, only followed (server/storage/migrations/index.ts).
 */
export const personEmailsSql = `
      CREATE TABLE person_emails (
        sub text NOT NULL CHECK (sub <> ''),
        email text NOT NULL CHECK (email <> '' AND email = lower(email)),
        added_at bigint NOT NULL,
        verified_at bigint,
        verified_by text CHECK (verified_by IN ('code', 'operator')),
        code_hash text,
        code_expires_at bigint,
        code_attempts integer NOT NULL DEFAULT 0 CHECK (code_attempts >= 0),
        PRIMARY KEY (sub, email),
        CHECK ((verified_at IS NULL) = (verified_by IS NULL))
      );
      CREATE INDEX person_emails_email ON person_emails (email);

      CREATE TABLE verification_sends (
        id bigserial PRIMARY KEY,
        sub text NOT NULL,
        email text NOT NULL,
        sent_at bigint NOT NULL
      );
      CREATE INDEX verification_sends_sub ON verification_sends (sub, sent_at);
      CREATE INDEX verification_sends_email ON verification_sends (email, sent_at);
    `;
