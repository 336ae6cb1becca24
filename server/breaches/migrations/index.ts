import type { Migration } from '../../storage/sqliteMigrate.ts';
import { updateToSchemaVersion10 } from './0010-initial-schema.ts';
import { updateToSchemaVersion20 } from './0020-data-class-slug-keys.ts';
import { updateToSchemaVersion30 } from './0030-lookup-queue.ts';
import { updateToSchemaVersion40 } from './0040-catalog-history.ts';
import { updateToSchemaVersion50 } from './0050-person-emails.ts';

export type { Migration };

/** Forward-only and append-only: a released migration is never edited, only followed. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 10, name: 'initial-schema', up: updateToSchemaVersion10 },
  { version: 20, name: 'data-class-slug-keys', up: updateToSchemaVersion20 },
  { version: 30, name: 'lookup-queue', up: updateToSchemaVersion30 },
  { version: 40, name: 'catalog-history', up: updateToSchemaVersion40 },
  { version: 50, name: 'person-emails', up: updateToSchemaVersion50 },
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;
