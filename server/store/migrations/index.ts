import type { Database } from 'better-sqlite3';
import type { Migration as SchemaMigration } from '../../../shared/db/migrations.ts';
import { updateToSchemaVersion10 } from './0010-initial-schema.ts';

export type Migration = SchemaMigration<Database>;

/** Forward-only and append-only: a released migration is never edited, only followed. */
export const MIGRATIONS: readonly Migration[] = [{ version: 10, name: 'initial-schema', up: updateToSchemaVersion10 }];

export const LATEST_SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;
